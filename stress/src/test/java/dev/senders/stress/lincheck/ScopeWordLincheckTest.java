package dev.senders.stress.lincheck;

import dev.senders.OperationState;
import dev.senders.Receiver;
import dev.senders.Sender;
import dev.senders.scope.ScopeState;
import dev.senders.scope.Scopes;
import dev.senders.scope.SimpleCountingScope;
import java.util.concurrent.atomic.AtomicInteger;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.jetbrains.lincheck.datastructures.ThreadIdGen;

/**
 * The count-and-state word of a {@link SimpleCountingScope} is linearizable: spawn, the
 * completion of spawned work, close, join, count and state, called from any threads, give the
 * results of some sequential order of the same calls on {@link ScopeModel}. And no join is lost or
 * early: once the scope is JOINED every started join has completed, before that none has, the
 * count always equals the work still associated, and completing the rest brings it to zero and
 * lets a join end the scope.
 *
 * <p>Spawned work completes in a separate operation ({@link #completeHeld}): spawn and completion
 * are each one step of the word. (A spawn of inline work is both steps in one call: a concurrent
 * {@code count()} can see it in between, so it is no single linearizable operation.)
 */
public class ScopeWordLincheckTest extends LincheckScenario {

    private static final int MAX_THREADS = 8;
    private static final int MAX_HELD = 8;

    private final SimpleCountingScope scope = new SimpleCountingScope();
    /** Work spawned by thread t and not yet completed: only thread t touches row t. */
    @SuppressWarnings({"unchecked", "rawtypes"}) // a generic array cannot be created
    private final Receiver<Object>[][] held = new Receiver[MAX_THREADS][MAX_HELD];
    private final int[] heldCount = new int[MAX_THREADS];
    private final AtomicInteger joinsStarted = new AtomicInteger();
    private final AtomicInteger joinsCompleted = new AtomicInteger();

    public ScopeWordLincheckTest() {}

    /** Spawns work that stays associated until this thread's {@link #completeHeld}. */
    @Operation
    public boolean spawnHeld(@Param(gen = ThreadIdGen.class) int tid) {
        Sender<Object> work = r -> (OperationState) () -> held[tid][heldCount[tid]++] = r;
        return Scopes.spawn(work, scope.getToken());
    }

    /** Completes the oldest work this thread spawned and still holds; false if none. */
    @Operation
    public boolean completeHeld(@Param(gen = ThreadIdGen.class) int tid) {
        int n = heldCount[tid];
        if (n == 0) {
            return false;
        }
        Receiver<Object> r = held[tid][0];
        System.arraycopy(held[tid], 1, held[tid], 0, n - 1);
        held[tid][--heldCount[tid]] = null;
        r.setValue("done");
        return true;
    }

    @Operation
    public void close() {
        scope.close();
    }

    /** Starts a join; true if it completed before start returned. */
    @Operation
    public boolean join() {
        joinsStarted.incrementAndGet();
        return JoinProbe.start(scope.join(), joinsCompleted).done();
    }

    @Operation
    public long count() {
        return scope.count();
    }

    @Operation
    public ScopeState state() {
        return scope.state();
    }

    /** No join lost or early: all of them complete once JOINED, none before. */
    @Override
    protected void invariants() {
        int started = joinsStarted.get();
        int completed = joinsCompleted.get();
        if (scope.state() == ScopeState.JOINED ? completed != started : completed != 0) {
            throw new AssertionError("state " + scope.state() + ", count " + scope.count() + ": " + completed
                    + " of " + started + " joins completed");
        }
        long held = 0;
        for (int c : heldCount) {
            held += c;
        }
        if (scope.count() != held) {
            throw new AssertionError("count " + scope.count() + " but " + held + " pieces of work are associated");
        }
        // the end: completing the rest brings the count to zero, and a join then ends the scope
        for (int t = 0; t < MAX_THREADS; t++) {
            while (heldCount[t] > 0) {
                completeHeld(t);
            }
        }
        if (!join() || scope.count() != 0 || scope.state() != ScopeState.JOINED
                || joinsCompleted.get() != joinsStarted.get()) {
            throw new AssertionError("after completing all work: " + scope + ", " + joinsCompleted.get() + " of "
                    + joinsStarted.get() + " joins completed");
        }
    }

    @Override
    protected Class<?> specification() {
        return Spec.class;
    }

    /** {@link ScopeModel} with this scenario's operations. */
    public static final class Spec {
        private final ScopeModel m = new ScopeModel();
        private final int[] heldCount = new int[MAX_THREADS];

        public Spec() {}

        public boolean spawnHeld(int tid) {
            if (!m.associate()) {
                return false;
            }
            heldCount[tid]++;
            return true;
        }

        public boolean completeHeld(int tid) {
            if (heldCount[tid] == 0) {
                return false;
            }
            heldCount[tid]--;
            m.dissociate();
            return true;
        }

        public void close() {
            m.close();
        }

        public boolean join() {
            return m.join();
        }

        public long count() {
            return m.count;
        }

        public ScopeState state() {
            return m.state;
        }
    }
}
