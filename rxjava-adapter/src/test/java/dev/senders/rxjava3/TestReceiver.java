package dev.senders.rxjava3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.senders.Env;
import dev.senders.InplaceStopSource;
import dev.senders.OperationState;
import dev.senders.Query;
import dev.senders.Receiver;
import dev.senders.Sender;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/** A receiver that records its completions and owns a stop source. */
final class TestReceiver<T> implements Receiver<T> {
    enum Kind { VALUE, ERROR, STOPPED }

    final InplaceStopSource stop = new InplaceStopSource();
    final AtomicInteger completions = new AtomicInteger();
    final CountDownLatch done = new CountDownLatch(1);
    volatile Kind kind;
    volatile T value;
    volatile Throwable error;
    volatile Thread thread;

    static <T> TestReceiver<T> start(Sender<T> sender) {
        TestReceiver<T> r = new TestReceiver<>();
        OperationState op = sender.connect(r);
        op.start();
        return r;
    }

    @Override
    public Env env() {
        return Env.of(Query.STOP_TOKEN, stop.token());
    }

    private void record(Kind k) {
        thread = Thread.currentThread();
        kind = k;
        completions.incrementAndGet();
        done.countDown();
    }

    @Override
    public void setValue(T v) {
        value = v;
        record(Kind.VALUE);
    }

    @Override
    public void setError(Throwable e) {
        error = e;
        record(Kind.ERROR);
    }

    @Override
    public void setStopped() {
        record(Kind.STOPPED);
    }

    TestReceiver<T> await() {
        try {
            if (!done.await(10, TimeUnit.SECONDS)) {
                fail("no completion within 10 s (hang guard)");
            }
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
        return this;
    }

    boolean isDone() {
        return completions.get() != 0;
    }

    void assertValue(T expected) {
        assertEquals(1, completions.get(), "completions");
        assertEquals(Kind.VALUE, kind, () -> "kind, error = " + error);
        assertEquals(expected, value);
    }

    void assertError(Class<? extends Throwable> type) {
        assertEquals(1, completions.get(), "completions");
        assertEquals(Kind.ERROR, kind);
        assertTrue(type.isInstance(error), () -> "error " + error);
    }

    void assertStopped() {
        assertEquals(1, completions.get(), "completions");
        assertEquals(Kind.STOPPED, kind);
    }

    void assertNotCompleted() {
        assertEquals(0, completions.get(), () -> "completed with " + kind + " " + value + " " + error);
    }
}
