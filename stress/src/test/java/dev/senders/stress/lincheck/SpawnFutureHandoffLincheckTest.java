package dev.senders.stress.lincheck;

import dev.senders.Env;
import dev.senders.InplaceStopSource;
import dev.senders.OperationState;
import dev.senders.Query;
import dev.senders.Receiver;
import dev.senders.Sender;
import dev.senders.scope.CountingScope;
import dev.senders.scope.Scopes;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.jetbrains.kotlinx.lincheck.execution.ExecutionScenario;
import org.jetbrains.lincheck.datastructures.Operation;

/**
 * The result handoff of {@link Scopes#spawnFuture}: the work completing races the consumer
 * connecting, starting and stopping (each at most once, from any threads). Checked by
 * the {@linkplain #invariants() invariants} after every interleaving: the consumer completes at most once, and exactly
 * once if it was started and either the work completed or it was stopped; what it gets is the
 * work's value or, if it was stopped, possibly {@code setStopped} (then the stop reached the work);
 * an unstarted consumer gets nothing; the scope's count is held exactly until the work completes.
 * Then, once the race is over, completing the remaining work still delivers the value to a started
 * consumer that was not stopped, and a join of the scope ends. The operations return nothing: every
 * property is about who completes what, not about a result.
 */
public class SpawnFutureHandoffLincheckTest extends LincheckScenario {

    private static final int VALUE = 42;

    private final CountingScope scope = new CountingScope();
    private final InplaceStopSource consumerStop = new InplaceStopSource();
    private final Consumer consumer = new Consumer(Env.of(Query.STOP_TOKEN, consumerStop.token()));
    private final AtomicInteger workStopRequests = new AtomicInteger();
    private volatile Receiver<? super Integer> work;
    private volatile boolean workCompleted;
    private volatile boolean connected;
    private volatile boolean started;
    private volatile boolean stopRequested;
    private volatile OperationState consumerOp;
    private final Sender<Integer> future;

    public SpawnFutureHandoffLincheckTest() {
        Sender<Integer> held = r -> (OperationState) () -> {
            work = r;
            r.env().stopToken().onStop(workStopRequests::incrementAndGet);
        };
        future = Scopes.spawnFuture(held, scope.getToken());
    }

    /** The consumer: counts completions, remembers the last. */
    static final class Consumer implements Receiver<Integer> {
        private final Env env;
        final AtomicInteger completions = new AtomicInteger();
        volatile Object outcome; // the value, or STOPPED, or the error

        static final Object STOPPED = "stopped";

        Consumer(Env env) {
            this.env = env;
        }

        @Override
        public void setValue(Integer v) {
            outcome = v;
            completions.incrementAndGet();
        }

        @Override
        public void setError(Throwable e) {
            outcome = e;
            completions.incrementAndGet();
        }

        @Override
        public void setStopped() {
            outcome = STOPPED;
            completions.incrementAndGet();
        }

        @Override
        public Env env() {
            return env;
        }
    }

    @Operation(runOnce = true)
    public void completeWork() {
        work.setValue(VALUE);
        workCompleted = true;
    }

    @Operation(runOnce = true)
    public void connectConsumer() {
        consumerOp = future.connect(consumer);
        connected = true;
    }

    /** Starts the consumer if this ran after the connect (else does nothing). */
    @Operation(runOnce = true)
    public void startConsumer() {
        OperationState op = consumerOp;
        if (op != null) {
            op.start();
            started = true;
        }
    }

    @Operation(runOnce = true)
    public void stopConsumer() {
        consumerStop.requestStop();
        stopRequested = true;
    }

    /**
     * The races by hand, beside the generated scenarios: the work completing against the stop of
     * a started consumer, against its start (with or without a stop), and against connect + start.
     */
    @Override
    protected List<ExecutionScenario> customScenarios() {
        return List.of(
                scenario().initial("connectConsumer", "startConsumer").thread("completeWork").thread("stopConsumer").build(),
                scenario().initial("connectConsumer").thread("completeWork").thread("startConsumer").build(),
                scenario().initial("connectConsumer").thread("completeWork").thread("startConsumer")
                        .thread("stopConsumer").build(),
                scenario().thread("completeWork").thread("connectConsumer", "startConsumer", "stopConsumer").build(),
                scenario().thread("stopConsumer", "completeWork").thread("connectConsumer", "startConsumer").build());
    }

    @Override
    protected void invariants() {
        check();
        // the race is over: completing the work now must still reach a started, unstopped consumer
        if (!workCompleted) {
            work.setValue(VALUE);
            workCompleted = true;
        }
        check();
        if (started && !stopRequested && consumer.completions.get() != 1) {
            throw new AssertionError("a started consumer never got the completed work's value");
        }
        if (!JoinProbe.start(scope.join()).done()) {
            throw new AssertionError("the join did not complete once the work had: " + scope);
        }
    }

    private void check() {
        int completions = consumer.completions.get();
        Object outcome = consumer.outcome;
        String state = "connected " + connected + ", started " + started + ", stopped " + stopRequested
                + ", work completed " + workCompleted + ": consumer completed " + completions + " times with "
                + outcome + ", " + scope;
        if (completions > 1 || (!started && completions != 0)) {
            throw new AssertionError(state);
        }
        if (started && (workCompleted || stopRequested) && completions != 1) {
            throw new AssertionError("a started consumer was not completed: " + state);
        }
        if (completions == 1 && !(outcome instanceof Integer && (Integer) outcome == VALUE && workCompleted)
                && !(outcome == Consumer.STOPPED && stopRequested)) {
            throw new AssertionError("wrong completion: " + state);
        }
        if (outcome == Consumer.STOPPED && workStopRequests.get() != 1) {
            throw new AssertionError("the consumer was stopped but the stop did not reach the work: " + state);
        }
        if (scope.count() != (workCompleted ? 0 : 1)) {
            throw new AssertionError("the scope's count is not held exactly until the work completes: " + state);
        }
    }
}
