package dev.senders.stress;

import dev.senders.scope.CountingScope;
import java.util.stream.Collectors;

/** The names a scope's dump lists, sorted and comma-separated ("" when empty), for the outstanding-list tests. */
final class OutstandingNames {

    private OutstandingNames() {}

    static String of(CountingScope scope) {
        return scope.outstanding().stream().map(w -> w.name().orElse("?")).sorted()
                .collect(Collectors.joining(","));
    }

}
