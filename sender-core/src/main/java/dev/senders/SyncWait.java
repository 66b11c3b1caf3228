package dev.senders;

import dev.senders.internal.Trampoline;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;

/**
 * {@code sync_wait} (P2300R3 [exec.sync_wait]): starts the work and drives a {@link RunLoop} on
 * the calling thread until the receiver completes. The receiver's env offers that run loop as its
 * scheduler and a stop token that the calling thread's interrupt fires.
 */
final class SyncWait<T> implements Receiver<T> {

    private static final int PENDING = 0, VALUE = 1, ERROR = 2, STOPPED = 3;

    private final RunLoop loop = new RunLoop();
    private final InplaceStopSource stop = new InplaceStopSource();
    private final Env env = Env.of(Query.SCHEDULER, (Scheduler) loop).with(Query.STOP_TOKEN, stop.token());
    private volatile int outcome;
    private volatile int claimed; // 0 -> 1 by the first completion (CAS): a racing second one is detected
    private T value;
    private Throwable error;

    static <T> T await(Sender<T> sender) {
        SyncWait<T> r = new SyncWait<>();
        // A fresh trampoline frame: work started here must not queue behind deferred work of
        // the frames this call is nested in (those run only after we return: a deadlock).
        Trampoline.isolated(() -> {
            sender.connect(r).start();
            r.loop.runUntilFinished(r.stop::requestStop);
            return null;
        });
        return r.result();
    }

    private T result() {
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

    private boolean complete(int how) {
        if (!CLAIMED.compareAndSet(this, 0, 1)) {
            Hooks.onErrorDropped(new ProtocolViolationException(
                    "syncWait: a sender completed twice (second completion: " + name(how) + ")"));
            return false;
        }
        return true;
    }

    private static String name(int how) {
        return how == VALUE ? "setValue" : how == ERROR ? "setError" : "setStopped";
    }

    @Override
    public void setValue(T v) {
        if (complete(VALUE)) {
            value = v;
            outcome = VALUE;
            loop.finish();
        }
    }

    @Override
    public void setError(Throwable e) {
        if (complete(ERROR)) {
            error = e == null ? new NullPointerException("setError(null)") : e;
            outcome = ERROR;
            loop.finish();
        }
    }

    @Override
    public void setStopped() {
        if (complete(STOPPED)) {
            outcome = STOPPED;
            loop.finish();
        }
    }

    @Override
    public Env env() {
        return env;
    }

    private static final java.lang.invoke.VarHandle CLAIMED;

    static {
        try {
            CLAIMED = java.lang.invoke.MethodHandles.lookup().findVarHandle(SyncWait.class, "claimed", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
