package dev.senders;

import dev.senders.internal.signal.Connect;
import dev.senders.internal.Durations;
import dev.senders.internal.signal.Signals;
import dev.senders.internal.VarHandles;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import dev.senders.internal.Trampoline;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeoutException;
import org.jspecify.annotations.Nullable;
import dev.senders.internal.Nulls;

/**
 * {@code sync_wait} (P2300R3 [exec.sync_wait]): starts the work and drives a {@link RunLoop} on
 * the calling thread until the receiver completes. The receiver's env offers that run loop as its
 * scheduler and a stop token that the waiter fires when it stops waiting.
 *
 * <p>The wait ends early on an interrupt of the calling thread or at the deadline of the timed
 * form. The waiter then requests stop on the work (on its own thread: the work's stop callbacks
 * run there, and work that honours stop synchronously completes during the request) and tries to
 * claim the result. If it wins, the work is abandoned: work queued on the run loop completes
 * stopped, a later completion of the work is discarded (an error goes to
 * {@link Hooks#onErrorDropped}), and the waiter throws. If the work's completion won, its result
 * is reported, except that stopped becomes the interrupt's or the deadline's exception.
 */
final class SyncWait<T> implements Receiver<T> {
    /*
     * claimed is the one word the completions and the waiter race on: 0 -> 1 by the
     * first completion (which then publishes outcome and calls loop.finish()),
     * 0 -> 2 by a waiter that gives up. A completion that finds 1 is a second completion
     * (reported as a ProtocolViolationException); one that finds 2 is late. A waiter that
     * finds 1 drives the loop again until the completer's finish(), which follows its
     * publication of the outcome at once.
     */

    private static final int PENDING = 0, VALUE = 1, ERROR = 2, STOPPED = 3;
    private static final int FREE = 0, COMPLETED = 1, GAVE_UP = 2;

    private final RunLoop loop = new RunLoop();
    private final InplaceStopSource stop = new InplaceStopSource();
    private final Env env = Env.of(Query.SCHEDULER, (Scheduler) loop).with(Query.STOP_TOKEN, stop.token());
    private volatile int outcome;
    private volatile int claimed;
    private @Nullable T value;
    private @Nullable Throwable error;

    static <T> @Nullable T await(Sender<T> sender) {
        try {
            return await(sender, null);
        } catch (TimeoutException impossible) {
            throw new AssertionError(impossible);
        }
    }

    /** {@code timeout == null}: no deadline. */
    static <T> @Nullable T await(Sender<T> sender, @Nullable Duration timeout) throws TimeoutException {
        Thread me = Thread.currentThread();
        if (NonBlockingThreads.test(me)) {
            throw new IllegalStateException("syncWait blocks the calling thread, which is not supported in thread "
                    + me.getName() + ": it is a non-blocking thread (an event loop or a reactive scheduler's worker)."
                    + " Compose the sender into the pipeline instead of waiting for it, or wait on another thread");
        }
        long deadline = 0L;
        if (timeout != null) {
            deadline = System.nanoTime() + Math.min(Math.max(0L, Durations.saturatedNanos(timeout)), Long.MAX_VALUE / 2);
            if (deadline == 0L) {
                deadline = 1L; // 0 means "no deadline" to the loop
            }
        }
        long d = deadline;
        SyncWait<T> r = new SyncWait<>();
        // A fresh trampoline frame: work started here must not queue behind deferred work of
        // the frames this call is nested in (those run only after we return: a deadlock).
        int how = Trampoline.isolated(() -> {
            Connect.checked(sender, r).start();
            int h = r.loop.runUntil(d);
            return h == RunLoop.FINISHED ? 0 : r.stopAndSettle(h == RunLoop.INTERRUPTED);
        });
        if (how == 0) {
            return r.result();
        }
        boolean interrupted = (how & INTERRUPTED) != 0;
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        if ((how & ABANDONED) != 0 || r.outcome == STOPPED) {
            if (interrupted) {
                throw interruptedWait();
            }
            throw timedOut(Nulls.nonNull(timeout)); // only a timed wait is abandoned
        }
        return r.result();
    }

    private static final int EARLY = 1, INTERRUPTED = 2, ABANDONED = 4;

    /**
     * The wait ended by an interrupt (status cleared by the loop) or at the deadline: requests
     * stop, then abandons the work or, if its completion won, waits for the loop to finish.
     */
    private int stopAndSettle(boolean interrupted) {
        stop.requestStop();
        if (CLAIMED.compareAndSet(this, FREE, GAVE_UP)) {
            loop.abandon();
            return EARLY | ABANDONED | (interrupted ? INTERRUPTED : 0);
        }
        // the work completed first: its outcome is published right before loop.finish()
        while (loop.runUntil(0L) == RunLoop.INTERRUPTED) {
            interrupted = true;
        }
        return EARLY | (interrupted ? INTERRUPTED : 0);
    }

    private static CancellationException interruptedWait() {
        CancellationException e = new CancellationException("syncWait: the waiting thread was interrupted;"
                + " stop was requested on the work and the wait abandoned (the interrupt status is set)");
        e.initCause(new InterruptedException("interrupted while waiting in syncWait"));
        return e;
    }

    private static TimeoutException timedOut(Duration timeout) {
        return new TimeoutException("syncWait: the work did not complete within " + Durations.format(timeout)
                + "; stop was requested on it and the wait abandoned");
    }

    private @Nullable T result() {
        switch (outcome) {
            case VALUE:
                return value;
            case ERROR:
                if (error instanceof RuntimeException) {
                    throw (RuntimeException) error;
                }
                if (error instanceof Error) {
                    throw (Error) error;
                }
                throw new CompletionException(error);
            case STOPPED:
                throw new CancellationException("the sender completed with setStopped");
            default:
                throw new AssertionError("run loop finished before the sender completed");
        }
    }

    private boolean complete(int how, @Nullable Throwable e) {
        if (CLAIMED.compareAndSet(this, FREE, COMPLETED)) {
            return true;
        }
        if (claimed == GAVE_UP) {
            if (how == ERROR) {
                Hooks.onErrorDropped(Nulls.nonNull(e)); // the waiter had left: never lost (ERROR carries the error)
            }
            return false;
        }
        Hooks.onErrorDropped(Signals.extraCompletion(
                "syncWait: a sender completed twice (second completion: " + name(how) + ")", e));
        return false;
    }

    private static String name(int how) {
        return how == VALUE ? "setValue" : how == ERROR ? "setError" : "setStopped";
    }

    @Override
    public void setValue(@Nullable T v) {
        if (complete(VALUE, null)) {
            value = v;
            outcome = VALUE;
            loop.finish();
        }
    }

    @Override
    public void setError(Throwable e) {
        Throwable err = e == null ? new NullPointerException("setError(null)") : e;
        if (complete(ERROR, err)) {
            error = err;
            outcome = ERROR;
            loop.finish();
        }
    }

    @Override
    public void setStopped() {
        if (complete(STOPPED, null)) {
            outcome = STOPPED;
            loop.finish();
        }
    }

    @Override
    public Env env() {
        return env;
    }

    private static final VarHandle CLAIMED = VarHandles.field(MethodHandles.lookup(), SyncWait.class, "claimed", int.class);
}
