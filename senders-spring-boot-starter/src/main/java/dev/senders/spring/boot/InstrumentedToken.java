package dev.senders.spring.boot;

import dev.senders.Sender;
import dev.senders.scope.AsyncScopeToken;
import java.util.Objects;
import java.util.concurrent.atomic.LongAdder;

/**
 * The token that {@link ScopeSpawner} hands out: the scope's own token, plus counting and context.
 *
 * <ul>
 * <li>{@link #tryAssociate()}: the scope's; counts a success as spawned and a failure (the scope is
 *     closed) as refused.
 * <li>{@link #dissociate()}: the scope's, unchanged.
 * <li>{@link #wrap(Sender)}: captures the spawning thread's {@link SpawnContext} (wrap runs on the
 *     thread that spawns or nests) and returns the scope's own wrap (its stop token) of an
 *     {@link ObservedWork}, which installs that context around connect, start and completion and
 *     counts how the work ended.
 * </ul>
 * Counters are {@link LongAdder}s: spawning threads contend on nothing but the scope's word.
 * Thread-safe; one instance per {@code ScopeSpawner}.
 */
final class InstrumentedToken implements AsyncScopeToken {

    private final AsyncScopeToken scopeToken;
    private final SpawnContext context;
    final LongAdder spawned = new LongAdder();
    final LongAdder refused = new LongAdder();
    final LongAdder completed = new LongAdder();
    final LongAdder stopped = new LongAdder();

    InstrumentedToken(AsyncScopeToken scopeToken, SpawnContext context) {
        this.scopeToken = Objects.requireNonNull(scopeToken, "scopeToken");
        this.context = Objects.requireNonNull(context, "context");
    }

    @Override
    public boolean tryAssociate() {
        if (scopeToken.tryAssociate()) {
            spawned.increment();
            return true;
        }
        refused.increment();
        return false;
    }

    @Override
    public void dissociate() {
        scopeToken.dissociate();
    }

    @Override
    public <T> Sender<T> wrap(Sender<T> sender) {
        return scopeToken.wrap(new ObservedWork<>(sender, this, context.capture()));
    }

    @Override
    public String toString() {
        return "InstrumentedToken[" + scopeToken + "]";
    }
}
