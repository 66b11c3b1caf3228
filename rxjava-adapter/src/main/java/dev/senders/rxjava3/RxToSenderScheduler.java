package dev.senders.rxjava3;

import dev.senders.OperationState;
import dev.senders.Receiver;
import dev.senders.Scheduler;
import dev.senders.Sender;
import dev.senders.StopCallback;
import dev.senders.StopToken;
import dev.senders.internal.signal.ImmediateOperation;
import dev.senders.internal.signal.Signals;
import io.reactivex.rxjava3.disposables.Disposable;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Objects;
import java.util.concurrent.RejectedExecutionException;

/**
 * {@link RxSchedulers#from}: a sender {@link Scheduler} whose {@code schedule()} runs one task on
 * the RxJava scheduler ({@code scheduleDirect}) and completes {@code setValue(null)} from it, on
 * the RxJava scheduler's thread. A stop request disposes the task and completes
 * {@code setStopped()} on the requesting thread. A task the RxJava scheduler refuses
 * ({@code scheduleDirect} throws, or returns an already-disposed {@code Disposable} without having
 * run the task, as a shut-down {@code Schedulers.from(executor)} does) completes
 * {@code setError(RejectedExecutionException)}.
 *
 * <h2>Implementation notes</h2>
 *
 * Each started operation has one state word, {@code ACTIVE -> DONE}, claimed by one CAS by
 * whichever comes first of the task running, the stop callback, and the rejection check; the
 * task's {@link Disposable} is held with the {@code DisposableHelper} protocol ({@code null}, the
 * task, or {@code DISPOSED}), so a stop that comes before {@code scheduleDirect} returns disposes
 * the task as soon as it is known. The rejection check is sound because the task claims the
 * state before running, so "disposed and unclaimed" means it never ran and never will.
 */
final class RxToSenderScheduler implements Scheduler {

    final io.reactivex.rxjava3.core.Scheduler rx;
    private final Sender<Void> schedule;

    RxToSenderScheduler(io.reactivex.rxjava3.core.Scheduler rx) {
        this.rx = rx;
        this.schedule = receiver -> new Operation(rx, Objects.requireNonNull(receiver, "receiver"));
    }

    @Override
    public Sender<Void> schedule() {
        return schedule;
    }

    @Override
    public String toString() {
        return "RxSchedulers.from(" + rx + ")";
    }

    static final class Operation implements OperationState, Runnable {
        static final Disposable DISPOSED = Disposable.disposed();

        private final io.reactivex.rxjava3.core.Scheduler rx;
        private final Receiver<? super Void> receiver;
        private volatile int done;
        private volatile Disposable task;
        private StopCallback stopCallback;
        private boolean started;

        @Override
        public String toString() {
            return "RxSchedulers.from(" + rx + ").schedule()'s operation";
        }

        Operation(io.reactivex.rxjava3.core.Scheduler rx, Receiver<? super Void> receiver) {
            this.rx = rx;
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
                done = 1;
                Signals.setStopped(receiver);
                return;
            }
            if (token.stopPossible()) {
                stopCallback = token.onStop(this::stop);
            }
            if (done != 0) {
                return;
            }
            Disposable d;
            try {
                d = rx.scheduleDirect(this);
            } catch (Throwable t) {
                Signals.throwIfFatal(t);
                if (claim()) {
                    Signals.setError(receiver, t);
                }
                return;
            }
            if (!TASK.compareAndSet(this, null, d)) {
                d.dispose(); // stop came first
            } else if (d.isDisposed() && claim()) {
                Signals.setError(receiver, new RejectedExecutionException(rx + " refused the task"));
            }
        }

        /** The task, on the RxJava scheduler's thread. */
        @Override
        public void run() {
            if (claim()) {
                Signals.setValue(receiver, null);
            }
        }

        private void stop() {
            if (DONE.compareAndSet(this, 0, 1)) {
                Disposable d = (Disposable) TASK.getAndSet(this, DISPOSED);
                if (d != null) {
                    d.dispose();
                }
                Signals.setStopped(receiver);
            }
        }

        private boolean claim() {
            if (DONE.compareAndSet(this, 0, 1)) {
                StopCallback c = stopCallback;
                if (c != null) {
                    stopCallback = null;
                    c.close();
                }
                return true;
            }
            return false;
        }

        private static final VarHandle DONE;
        private static final VarHandle TASK;

        static {
            try {
                MethodHandles.Lookup l = MethodHandles.lookup();
                DONE = l.findVarHandle(Operation.class, "done", int.class);
                TASK = l.findVarHandle(Operation.class, "task", Disposable.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }
    }
}
