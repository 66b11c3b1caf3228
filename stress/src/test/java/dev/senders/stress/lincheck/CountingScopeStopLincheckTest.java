package dev.senders.stress.lincheck;

import dev.senders.OperationState;
import dev.senders.Sender;
import dev.senders.scope.CountingScope;
import dev.senders.scope.ScopeState;
import dev.senders.scope.Scopes;
import java.util.concurrent.atomic.AtomicInteger;
import org.jetbrains.lincheck.datastructures.Operation;

/**
 * {@link CountingScope#requestStop()} against spawn and close, from any threads. Whether each spawn
 * of work that runs until it is stopped is accepted, and whether stop is requested, are what some
 * sequential order of the same calls on the {@link Spec} gives. And (the {@linkplain #invariants() invariants}): once stop
 * was requested every accepted piece of work has been stopped exactly once and nothing is
 * associated; before that, all of it is still associated; after the run, a join completes at once
 * if the count is zero, else exactly when a final stop request has released the rest.
 *
 * <p>A spawn is two steps, association and start (where this work registers its stop callback,
 * which runs inline if stop was already requested), and {@code requestStop} completes the pending
 * work one piece after another; so the count, the state, joins and "stopped inline" are not
 * results here: an observer between the steps sees values no atomic model has (a join that sees
 * the count of a spawn that is about to end waits, and later spawns get in: correct, and not
 * linearizable). They are checked by the validation; {@link ScopeWordLincheckTest} checks the word
 * with single-step operations.
 */
public class CountingScopeStopLincheckTest extends LincheckScenario {

    private final CountingScope scope = new CountingScope();
    private final AtomicInteger accepted = new AtomicInteger();
    private final AtomicInteger stopped = new AtomicInteger();

    public CountingScopeStopLincheckTest() {}

    /** Spawns work that completes with setStopped when its stop token (the scope's) fires. */
    @Operation
    public boolean spawnUntilStopped() {
        Sender<Object> work = r -> (OperationState) () -> r.env().stopToken().onStop(() -> {
            stopped.incrementAndGet();
            r.setStopped();
        });
        if (!Scopes.spawn(work, scope.getToken())) {
            return false;
        }
        accepted.incrementAndGet();
        return true;
    }

    @Operation
    public void requestStop() {
        scope.requestStop();
    }

    @Operation
    public void close() {
        scope.close();
    }

    @Operation
    public boolean stopRequested() {
        return scope.stopToken().stopRequested();
    }

    @Override
    protected void invariants() {
        boolean stopRequested = scope.stopToken().stopRequested();
        check(scope.count() == (stopRequested ? 0 : accepted.get())
                && stopped.get() == (stopRequested ? accepted.get() : 0), "after the run");
        scope.close();
        JoinProbe join = JoinProbe.start(scope.join());
        check(join.done() == (scope.count() == 0), "a join started at count " + scope.count());
        scope.requestStop();
        check(join.done() && scope.count() == 0 && stopped.get() == accepted.get()
                && scope.state() == ScopeState.JOINED, "after a final stop request");
    }

    private void check(boolean ok, String when) {
        if (!ok) {
            throw new AssertionError(when + ": " + accepted.get() + " spawned, " + stopped.get() + " stopped, "
                    + scope + ", stop requested " + scope.stopToken().stopRequested());
        }
    }

    @Override
    protected Class<?> specification() {
        return Spec.class;
    }

    /** The contract: spawn is accepted until the scope is closed; stop is requested once asked. */
    public static final class Spec {
        private final ScopeModel m = new ScopeModel();
        private boolean stopRequested;

        public Spec() {}

        public boolean spawnUntilStopped() {
            return m.associate();
        }

        public void requestStop() {
            stopRequested = true;
        }

        public void close() {
            m.close();
        }

        public boolean stopRequested() {
            return stopRequested;
        }
    }
}
