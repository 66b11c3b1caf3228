package dev.senders.reactor;

import java.util.List;
import reactor.core.publisher.Operators;
import reactor.util.context.Context;

/** Test helper: a context whose discard hook adds to a list (what {@code doOnDiscard} installs). */
final class Operators2 {
    private Operators2() {}

    static Context discardInto(List<Object> into) {
        return Operators.enableOnDiscard(Context.empty(), into::add);
    }
}
