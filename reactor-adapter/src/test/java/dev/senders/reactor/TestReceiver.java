package dev.senders.reactor;

import dev.senders.Env;
import dev.senders.InplaceStopSource;
import dev.senders.Query;
import dev.senders.Receiver;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/** Records the one completion a receiver gets, and counts every completion (to catch doubles). */
final class TestReceiver<T> implements Receiver<T> {

    enum Kind { VALUE, ERROR, STOPPED }

    final InplaceStopSource stop = new InplaceStopSource();
    final AtomicInteger completions = new AtomicInteger();
    final CountDownLatch done = new CountDownLatch(1);
    private final Env env;
    volatile Kind kind;
    volatile T value;
    volatile Throwable error;
    volatile Thread thread;

    TestReceiver() {
        this(Env.empty());
    }

    TestReceiver(Env env) {
        this.env = env.with(Query.STOP_TOKEN, stop.token());
    }

    @Override
    public void setValue(T v) {
        value = v;
        complete(Kind.VALUE);
    }

    @Override
    public void setError(Throwable e) {
        error = e;
        complete(Kind.ERROR);
    }

    @Override
    public void setStopped() {
        complete(Kind.STOPPED);
    }

    private void complete(Kind k) {
        if (completions.incrementAndGet() == 1) {
            kind = k;
            thread = Thread.currentThread();
        }
        done.countDown();
    }

    @Override
    public Env env() {
        return env;
    }

    /** Waits (hang guard only) for the completion and returns its kind. */
    Kind await() {
        try {
            if (!done.await(10, TimeUnit.SECONDS)) {
                throw new AssertionError("no completion within the hang guard");
            }
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
        return kind;
    }
}
