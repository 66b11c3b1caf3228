package dev.senders;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** Records every signal it gets (with the thread), for assertions. Thread-safe. */
final class TestReceiver<T> implements Receiver<T> {

    /** One recorded signal. */
    static final class Signal {
        final String kind;
        final Object payload;
        final Thread thread;

        Signal(String kind, Object payload) {
            this.kind = kind;
            this.payload = payload;
            this.thread = Thread.currentThread();
        }

        @Override
        public String toString() {
            return kind + "(" + payload + ")@" + thread.getName();
        }
    }

    private final List<Signal> signals = new ArrayList<>();
    private final CountDownLatch first = new CountDownLatch(1);
    private final Env env;

    TestReceiver() {
        this(Env.empty());
    }

    TestReceiver(Env env) {
        this.env = env;
    }

    static <T> TestReceiver<T> withStopToken(StopToken token) {
        return new TestReceiver<>(Env.of(Query.STOP_TOKEN, token));
    }

    private synchronized void record(String kind, Object payload) {
        signals.add(new Signal(kind, payload));
        first.countDown();
    }

    @Override
    public void setValue(T value) {
        record("value", value);
    }

    @Override
    public void setError(Throwable error) {
        record("error", error);
    }

    @Override
    public void setStopped() {
        record("stopped", null);
    }

    @Override
    public Env env() {
        return env;
    }

    synchronized List<Signal> signals() {
        return new ArrayList<>(signals);
    }

    synchronized int count() {
        return signals.size();
    }

    /** Waits (hang guard) for the first signal and returns it. */
    Signal await() throws InterruptedException {
        if (!first.await(10, TimeUnit.SECONDS)) {
            throw new AssertionError("no signal within 10 s");
        }
        return single();
    }

    /** The one signal received; fails if there are zero or several. */
    synchronized Signal single() {
        if (signals.size() != 1) {
            throw new AssertionError("expected exactly one signal, got " + signals);
        }
        return signals.get(0);
    }
}
