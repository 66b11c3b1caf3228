package dev.senders.reactor;

import dev.senders.OperationState;
import dev.senders.Receiver;
import dev.senders.Scheduler;
import dev.senders.Sender;
import dev.senders.StopCallback;
import dev.senders.StopToken;
import dev.senders.internal.signal.ImmediateOperation;
import dev.senders.internal.signal.Signals;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Objects;
import reactor.core.Disposable;

/**
 * {@link ReactorSchedulers#from}: {@code schedule()} submits one task to a Reactor scheduler.
 *
 * <h2>Implementation notes</h2>
 *
 * Each operation is the task itself. The task running and the stop callback race on one word:
 * <pre>
 *   bit 0 TASK_SET  the Disposable returned by the Reactor scheduler is in {@code task}
 *   bit 1 RAN       run() claimed the completion (setValue)
 *   bit 2 STOPPED   the stop callback claimed it (setStopped), or the submission failed (setError)
 * </pre>
 * RAN and STOPPED exclude each other. The task is disposed only by the STOPPED claimer, and only
 * if it has not run: disposing a running Reactor task may interrupt its thread, which would hit
 * the receiver's code. If stop wins before {@code task} is known, {@code start()} disposes it when
 * it sets TASK_SET.
 */
final class ReactorToSenderScheduler implements Scheduler {

    private final reactor.core.scheduler.Scheduler scheduler;
    private final Sender<Void> schedule;

    ReactorToSenderScheduler(reactor.core.scheduler.Scheduler scheduler) {
        this.scheduler = scheduler;
        this.schedule = receiver -> new Task(scheduler, Objects.requireNonNull(receiver, "receiver"));
    }

    @Override
    public Sender<Void> schedule() {
        return schedule;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ReactorToSenderScheduler && ((ReactorToSenderScheduler) o).scheduler == scheduler;
    }

    @Override
    public int hashCode() {
        return System.identityHashCode(scheduler);
    }

    @Override
    public String toString() {
        return "ReactorSchedulers.from(" + scheduler + ")";
    }

    static final class Task implements OperationState, Runnable {
        static final int TASK_SET = 1, RAN = 2, STOPPED = 4;

        private final reactor.core.scheduler.Scheduler scheduler;
        private final Receiver<? super Void> receiver;
        private Disposable task;
        private StopCallback stopCallback;
        private volatile int state;
        private boolean started;

        Task(reactor.core.scheduler.Scheduler scheduler, Receiver<? super Void> receiver) {
            this.scheduler = scheduler;
            this.receiver = receiver;
        }

        @Override
        public void start() {
            if (started) {
                throw ImmediateOperation.startedTwice(this);
            }
            started = true;
            StopToken token = receiver.env().stopToken();
            if (token.stopRequested()) {
                state = STOPPED;
                Signals.setStopped(receiver);
                return;
            }
            if (token.stopPossible()) {
                stopCallback = token.onStop(this::onStop);
                if ((state & STOPPED) != 0) {
                    return; // the callback ran inline (stop raced start): completed, submit nothing
                }
            }
            Disposable d;
            try {
                d = scheduler.schedule(this);
            } catch (Throwable t) {
                Signals.throwIfFatal(t);
                if (claim(STOPPED)) {
                    closeCallback();
                    Signals.setError(receiver, t);
                }
                return;
            }
            task = d;
            int prev = (int) STATE.getAndBitwiseOr(this, TASK_SET);
            if ((prev & STOPPED) != 0) {
                d.dispose();
            }
        }

        /** Claims the completion for {@code bit} (RAN or STOPPED) unless the other one already has it. */
        private boolean claim(int bit) {
            for (;;) {
                int s = state;
                if ((s & (RAN | STOPPED)) != 0) {
                    return false;
                }
                if (STATE.compareAndSet(this, s, s | bit)) {
                    return true;
                }
            }
        }

        private void closeCallback() {
            StopCallback cb = stopCallback;
            if (cb != null) {
                stopCallback = null;
                cb.close();
            }
        }

        private void onStop() {
            int s;
            do {
                s = state;
                if ((s & (RAN | STOPPED)) != 0) {
                    return;
                }
            } while (!STATE.compareAndSet(this, s, s | STOPPED));
            if ((s & TASK_SET) != 0) {
                task.dispose();
            }
            Signals.setStopped(receiver);
        }

        @Override
        public void run() {
            if (claim(RAN)) {
                closeCallback();
                Signals.setValue(receiver, null);
            }
        }

        @Override
        public String toString() {
            return "ReactorSchedulers.from(" + scheduler + ").schedule()'s operation";
        }

        private static final VarHandle STATE;

        static {
            try {
                STATE = MethodHandles.lookup().findVarHandle(Task.class, "state", int.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }
    }
}
