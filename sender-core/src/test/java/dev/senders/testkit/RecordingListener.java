package dev.senders.testkit;

import dev.senders.scope.AbstractCountingScope;
import dev.senders.scope.SpawnDecorator;
import dev.senders.scope.SpawnListener;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jspecify.annotations.Nullable;

/**
 * A {@link SpawnListener} that records what it is told, in order, as text: {@code "accepted
 * <scope> <work>"}, {@code "end <outcome>[ <error message>] (count <n>, errors <m>)"} with the
 * scope's count and error count at that moment (so a test sees that the end came before the
 * association was released and the error routed), and {@code "refused <scope>"}. Thread-safe.
 */
public final class RecordingListener extends SpawnListener {
    private final AbstractCountingScope scope;
    /** What the listener was told, in order. */
    public final List<String> events = new CopyOnWriteArrayList<>();

    /**
     * @param scope the scope whose counts each end records
     */
    public RecordingListener(AbstractCountingScope scope) {
        this.scope = scope;
    }

    @Override
    protected void accepted(String scopeName, @Nullable String workName) {
        events.add("accepted " + scopeName + " " + workName);
    }

    @Override
    public void end(SpawnDecorator.Outcome outcome, @Nullable Throwable error) {
        events.add("end " + outcome.tag() + (error == null ? "" : " " + error.getMessage())
                + " (count " + scope.count() + ", errors " + scope.errorCount() + ")");
    }

    @Override
    public void refused(String scopeName) {
        events.add("refused " + scopeName);
    }
}
