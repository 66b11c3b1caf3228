package dev.senders.task;

import dev.senders.Env;
import dev.senders.Hooks;
import dev.senders.InplaceStopSource;
import dev.senders.OperationState;
import dev.senders.ProtocolViolationException;
import dev.senders.Query;
import dev.senders.Receiver;
import dev.senders.Scheduler;
import dev.senders.Sender;
import dev.senders.StopCallback;
import dev.senders.StopToken;
import dev.senders.internal.signal.Connect;
import dev.senders.internal.signal.ImmediateOperation;
import dev.senders.internal.signal.Signals;
import dev.senders.internal.VarHandles;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.Executor;
import java.util.concurrent.locks.LockSupport;
import org.jspecify.annotations.Nullable;

/**
 * One run of a {@link Task}: the operation state, the body's {@link Task.Context}, and the
 * {@link Runnable} handed to the executor. See {@link Task} for the contract.
 */
final class TaskOperation<T> implements OperationState, Runnable, Task.Context {
    /*
     * Layout of the operation state:
     * - phase (VarHandle, int): NEW -> STARTED -> RUNNING -> DONE. start
     *   claims NEW -> STARTED (a second start throws
     *   ProtocolViolationException); the body thread claims STARTED -> RUNNING by CAS
     *   and, once the body has returned or thrown, sets DONE. Before the body began,
     *   STARTED -> DONE is claimed instead by a stop request (the task completes stopped on
     *   the stopping thread, so a body its executor dropped still ends) or by the executor refusing
     *   the body; whichever loses does nothing (an executor's late exception goes to
     *   Hooks.onErrorDropped).
     * - thread (volatile): the body's thread while the body runs, else null. The
     *   receiver-stop callback reads it to interrupt the body; the body thread clears it, then
     *   closes that callback (which waits for a callback running on another thread, the
     *   StopCallback.close() rule), then clears its interrupt status. So no interrupt
     *   outlives the body, and a pooled thread never carries one into its next job.
     * - stop: the task's own InplaceStopSource; its token is in env, the env
     *   every awaited sender sees. The receiver's token fires it through upstream; an
     *   interrupt observed while an await parks fires it too.
     * - latched (body thread only, no atomics): null, STOPPED (an await
     *   completed stopped) or the Throwable passed to fail. The first one wins.
     *
     * Each await has one small state word of its own (Await.state), on which the body
     * thread (about to park) and the completing thread race: bits STARTED (set by the body
     * before start), CLAIMED (the first completion claims it, a second one is a
     * protocol violation), COMPLETED (result fields written; release) and PARKED (the
     * body announced it will park; set by CAS only while COMPLETED is clear). The completer
     * unparks only if it sees PARKED; the body parks only after its CAS succeeded, so a
     * completion that happens before start returns (an inline sender) costs no park/unpark,
     * and no wake-up can be lost. Spurious wake-ups and interrupts just loop; there is no spinning.
     */

    private static final int NEW = 0, STARTED = 1, RUNNING = 2, DONE = 3;
    private static final Object STOPPED = new Object();

    private final Executor executor;
    private final Task.Body<T> body;
    private final Receiver<? super T> receiver;
    private final InplaceStopSource stop = new InplaceStopSource();

    private volatile int phase;
    private volatile @Nullable Thread thread;
    private Env env = Env.empty();          // written by start before the body is handed over
    private @Nullable StopCallback upstream;          // likewise; closed by whoever completes the receiver
    private @Nullable Object latched;                 // body thread only

    TaskOperation(Executor executor, Task.Body<T> body, Receiver<? super T> receiver) {
        this.executor = executor;
        this.body = body;
        this.receiver = receiver;
    }

    // ---------------------------------------------------------------- operation state

    @Override
    public void start() {
        if (!PHASE.compareAndSet(this, NEW, STARTED)) {
            throw ImmediateOperation.startedTwice("a Task operation");
        }
        StopToken token;
        try {
            Env renv = receiver.env();
            env = renv.with(Query.STOP_TOKEN, stop.token());
            token = renv.stopToken();
        } catch (Throwable t) {
            Signals.throwIfFatal(t);
            phase = DONE;
            Signals.setError(receiver, t);
            return;
        }
        if (token.stopPossible()) {
            upstream = token.onStop(this::onReceiverStop);   // runs inline if already requested
            if (phase == DONE) {
                return; // stop came before the body began: completed stopped by the callback
            }
        }
        try {
            executor.execute(this);
        } catch (Throwable t) {
            Signals.throwIfFatal(t);
            if (PHASE.compareAndSet(this, STARTED, DONE)) {
                closeUpstream();
                Signals.setError(receiver, t);
            } else {
                Hooks.onErrorDropped(t); // the body began (or stop completed the task) before the executor threw
            }
        }
    }

    private void closeUpstream() {
        StopCallback cb = upstream;
        if (cb != null) {
            upstream = null;
            cb.close();
        }
    }

    /**
     * The receiver's token fired: stop what is awaited, and wake a body blocked elsewhere. If the
     * body has not begun (its thread has not picked it up, or never will: an executor that
     * dropped its queue), the task completes stopped now, on this thread, and the body never runs.
     */
    private void onReceiverStop() {
        stop.requestStop();
        if (PHASE.compareAndSet(this, STARTED, DONE)) {
            closeUpstream(); // returns at once: we are inside it
            Signals.setStopped(receiver);
            return;
        }
        Thread t = thread;
        if (t != null) {
            t.interrupt();
        }
    }

    /** The body, on the task's thread. */
    @Override
    public void run() {
        if (!PHASE.compareAndSet(this, STARTED, RUNNING)) {
            return; // stop (or a failed submission) completed the task before the body began
        }
        Thread me = Thread.currentThread();
        thread = me;           // then read stop: pairs with onReceiverStop's requestStop, then read thread
        boolean ran = false;
        T value = null;
        Throwable thrown = null;
        try {
            if (!stop.stopRequested()) {
                ran = true;
                value = body.run(this);
            }
        } catch (Throwable t) {
            thrown = t;
        } finally {
            phase = DONE;
            thread = null;
            closeUpstream();           // waits for an in-flight onReceiverStop (it may interrupt us)
            Thread.interrupted();      // no interrupt outlives the body
        }
        if (thrown instanceof VirtualMachineError || thrown instanceof LinkageError) {
            // A fatal error of the body is delivered, then rethrown on the task's thread (C8): the
            // body's thread is the task's own, so nobody but its consumer can act on this error.
            // Deliver it (as FutureTask does), then let it propagate on this thread too, so that
            // its uncaught-exception handler sees it.
            Signals.setError(receiver, thrown);
            Signals.throwIfFatal(thrown);
        }
        complete(ran, value, thrown);
    }

    private void complete(boolean ran, @Nullable T value, @Nullable Throwable thrown) {
        Object l = latched;
        latched = null;
        if (!ran) {
            Signals.setStopped(receiver);
        } else if (l == STOPPED) {
            if (thrown != null && !(thrown instanceof CancellationException)
                    && !(thrown instanceof InterruptedException)) {
                Hooks.onErrorDropped(thrown);     // an error after the stop: never lost
            }
            Signals.setStopped(receiver);
        } else if (l != null) {
            Throwable e = (Throwable) l;
            if (thrown != null && thrown != e) {
                e.addSuppressed(thrown);
            }
            Signals.setError(receiver, e);
        } else if (thrown == null) {
            Signals.setValue(receiver, value);
        } else if (thrown instanceof TaskStoppedException
                || (thrown instanceof InterruptedException && stop.stopRequested())) {
            Signals.setStopped(receiver);
        } else {
            Signals.setError(receiver, thrown);
        }
    }

    // ---------------------------------------------------------------- Task.Context

    private void checkBodyThread(String what) {
        if (thread != Thread.currentThread()) {
            throw new IllegalStateException(what + " must be called by the task's body, on the task's thread"
                    + (phase == DONE ? " (the body has already returned)" : ""));
        }
    }

    @Override
    public <U> @Nullable U await(Sender<U> sender) {
        Objects.requireNonNull(sender, "sender");
        checkBodyThread("Task.Context.await");
        Await<U> a = new Await<>(env);
        OperationState op = Connect.checked(sender, a);
        STATE.getAndBitwiseOrRelease(a, Await.STARTED);   // RMW: a (buggy) completion before start may have set bits
        op.start();
        if (((int) STATE.getAcquire(a) & Await.COMPLETED) == 0) {
            parkUntilCompleted(a);
        }
        switch (a.kind) {
            case Await.VALUE:
                return a.value;
            case Await.ERROR:
                throw TaskOperation.<RuntimeException>sneaky(a.error);
            default:
                if (latched == null) {
                    latched = STOPPED;
                }
                throw new TaskStoppedException();
        }
    }

    private void parkUntilCompleted(Await<?> a) {
        boolean interrupted = false;
        for (;;) {
            int s = (int) STATE.getVolatile(a);
            if ((s & Await.COMPLETED) != 0) {
                break;
            }
            if ((s & Await.PARKED) == 0 && !STATE.compareAndSet(a, s, s | Await.PARKED)) {
                continue;   // the completer changed the word (claimed or completed): look again
            }
            LockSupport.park(a);
            if (Thread.interrupted()) {
                interrupted = true;
                stop.requestStop();   // an interrupt while awaiting is a stop request on the task
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public <U> @Nullable U runOn(Scheduler scheduler, Callable<? extends U> block) {
        Objects.requireNonNull(scheduler, "scheduler");
        Objects.requireNonNull(block, "block");
        return await(new RunOn<U>(scheduler, block));
    }

    @Override
    public <R> @Nullable R fail(Throwable error) {
        Objects.requireNonNull(error, "error");
        checkBodyThread("Task.Context.fail");
        Object l = latched;
        if (l == null) {
            latched = error;
        } else if (l == STOPPED) {
            Hooks.onErrorDropped(error);
        } else if (l != error) {
            ((Throwable) l).addSuppressed(error);
        }
        return null;
    }

    @Override
    public boolean clearStopped() {
        checkBodyThread("Task.Context.clearStopped");
        if (latched == STOPPED) {
            latched = null;
            return true;
        }
        return false;
    }

    @Override
    public Env env() {
        return env;
    }

    @Override
    public StopToken stopToken() {
        return stop.token();
    }

    @Override
    public Optional<Scheduler> scheduler() {
        return env.scheduler();
    }

    @Override
    public boolean isVirtualThread() {
        checkBodyThread("Task.Context.isVirtualThread");
        return TaskThreads.isVirtual(Thread.currentThread());
    }

    @Override
    public String toString() {
        return "Task.Context[" + (phase == DONE ? "done" : phase == RUNNING ? "running" : "not running") + "]";
    }

    /** Throws {@code t} itself, checked or not (the body's signature already allows any exception). */
    @SuppressWarnings("unchecked")
    private static <E extends Throwable> E sneaky(@Nullable Throwable t) throws E {
        throw (E) t;
    }

    // ---------------------------------------------------------------- one await

    /** The receiver of one awaited sender; its state word is described in the class comment. */
    static final class Await<U> implements Receiver<U> {
        static final int STARTED = 1, CLAIMED = 2, COMPLETED = 4, PARKED = 8;
        static final int VALUE = 1, ERROR = 2, STOPPED = 3;

        private final Env env;
        private final Thread waiter = Thread.currentThread();
        int state;          // VarHandle STATE
        int kind;           // written after CLAIMED, published by COMPLETED
        @Nullable U value;
        @Nullable Throwable error;

        Await(Env env) {
            this.env = env;
        }

        @Override
        public void setValue(@Nullable U v) {
            if (claim("setValue", null)) {
                value = v;
                publish(VALUE);
            }
        }

        @Override
        public void setError(Throwable e) {
            if (claim("setError", e)) {
                error = e != null ? e : new NullPointerException("setError(null)");
                publish(ERROR);
            }
        }

        @Override
        public void setStopped() {
            if (claim("setStopped", null)) {
                publish(STOPPED);
            }
        }

        @Override
        public Env env() {
            return env;
        }

        private boolean claim(String signal, @Nullable Throwable extra) {
            int s = (int) STATE.getAndBitwiseOr(this, CLAIMED);
            if ((s & CLAIMED) != 0) {
                Hooks.onErrorDropped(Signals.extraCompletion(
                        "an awaited sender completed twice (second completion: " + signal + ")", extra));
                return false;
            }
            if ((s & STARTED) == 0) {
                // P2300: no completion before start. The await can still take the error.
                error = new ProtocolViolationException(
                        "an awaited sender completed (" + signal + ") before it was started");
                publish(ERROR);
                return false;
            }
            return true;
        }

        private void publish(int k) {
            kind = k;
            int s = (int) STATE.getAndBitwiseOr(this, COMPLETED);
            if ((s & PARKED) != 0) {
                LockSupport.unpark(waiter);
            }
        }
    }

    private static final VarHandle PHASE = VarHandles.field(MethodHandles.lookup(), TaskOperation.class, "phase", int.class);
    private static final VarHandle STATE = VarHandles.field(MethodHandles.lookup(), Await.class, "state", int.class);
}
