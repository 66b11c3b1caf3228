package dev.senders.scope;

import dev.senders.Env;
import dev.senders.Receiver;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/** Records the one completion it gets (and counts extra ones). */
final class TestReceiver<T> implements Receiver<T> {

    enum Signal { VALUE, ERROR, STOPPED }

    final CountDownLatch done = new CountDownLatch(1);
    final AtomicInteger completions = new AtomicInteger();
    final Env env;
    volatile Signal signal;
    volatile T value;
    volatile Throwable error;
    volatile Thread thread;

    TestReceiver() {
        this(Env.empty());
    }

    TestReceiver(Env env) {
        this.env = env;
    }

    private void record(Signal s) {
        completions.incrementAndGet();
        thread = Thread.currentThread();
        signal = s;
        done.countDown();
    }

    @Override
    public void setValue(T v) {
        value = v;
        record(Signal.VALUE);
    }

    @Override
    public void setError(Throwable e) {
        error = e;
        record(Signal.ERROR);
    }

    @Override
    public void setStopped() {
        record(Signal.STOPPED);
    }

    @Override
    public Env env() {
        return env;
    }

    boolean isDone() {
        return done.getCount() == 0;
    }

    void await() {
        try {
            if (!done.await(10, TimeUnit.SECONDS)) {
                throw new AssertionError("receiver not completed within 10 s (hang guard)");
            }
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }
}
