package dev.senders.task;

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
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/** Test receiver: records the one completion it expects, its thread, and counts completions. */
class Probe<T> implements Receiver<T> {

    final InplaceStopSource stopSource = new InplaceStopSource();
    final CountDownLatch done = new CountDownLatch(1);
    final AtomicInteger completions = new AtomicInteger();
    private final Env env;
    volatile String signal;
    volatile T value;
    volatile Throwable error;
    volatile Thread thread;

    Probe() {
        this(Env.empty());
    }

    Probe(Env base) {
        this.env = base.with(Query.STOP_TOKEN, stopSource.token());
    }

    static <T> Probe<T> run(Sender<T> sender) {
        Probe<T> p = new Probe<>();
        sender.connect(p).start();
        return p;
    }

    @Override
    public void setValue(T v) {
        value = v;
        record("value");
    }

    @Override
    public void setError(Throwable e) {
        error = e;
        record("error");
    }

    @Override
    public void setStopped() {
        record("stopped");
    }

    private void record(String s) {
        thread = Thread.currentThread();
        signal = s;
        completions.incrementAndGet();
        done.countDown();
    }

    @Override
    public Env env() {
        return env;
    }

    /** Waits (hang guard only) for the completion and checks it was the expected signal, once. */
    Probe<T> awaitSignal(String expected) {
        try {
            assertTrue(done.await(10, TimeUnit.SECONDS), "the task did not complete");
        } catch (InterruptedException e) {
            fail(e);
        }
        assertEquals(expected, signal, () -> "signal (error: " + error + ")");
        assertEquals(1, completions.get(), "completions");
        return this;
    }

    // ---- small senders the tests need (the core algorithms are not used here)

    /** Completes with {@code value} from a thread of {@code executor}, recording that thread. */
    static <T> Sender<T> valueOn(Executor executor, T value, Thread[] completer) {
        return r -> () -> executor.execute(() -> {
            completer[0] = Thread.currentThread();
            r.setValue(value);
        });
    }

    /**
     * Never completes on its own: completes stopped when its receiver's stop token fires, and
     * counts down {@code started} once it is started.
     */
    static <T> Sender<T> untilStopped(CountDownLatch started, AtomicInteger sawStop) {
        return r -> new OperationState() {
            @Override
            public void start() {
                r.env().stopToken().onStop(() -> {
                    sawStop.incrementAndGet();
                    r.setStopped();
                });
                started.countDown();
            }
        };
    }
}
