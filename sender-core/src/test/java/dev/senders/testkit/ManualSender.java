package dev.senders.testkit;

import dev.senders.OperationState;
import dev.senders.Receiver;
import dev.senders.Sender;
import dev.senders.StopCallback;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A multi-shot sender whose operations the test completes by hand. Connect has no side effect but
 * counting; {@code start()} counts and remembers the operation's receiver. Nothing completes until
 * the test calls {@link #complete}, {@link #fail}, {@link #stop} (on the latest started operation)
 * or a signal method on one of {@link #started()}.
 *
 * <p>Stop: made with {@link #ManualSender()} it ignores its receivers' stop tokens (registers no
 * callback). Made with {@link #ManualSender(boolean) ManualSender(stopCompletesStopped)} every start
 * registers a callback on the receiver's stop token that counts {@link #stopsSeen()} and, if
 * {@code stopCompletesStopped}, completes that operation with {@code setStopped()} from the callback
 * (i.e. on the thread that requested stop). The callback is never deregistered.
 *
 * <p>Test support, not published API (see package-info). Thread-safe.
 */
public final class ManualSender<T> implements Sender<T> {

    private final boolean watchStop;
    private final boolean stopCompletesStopped;
    private final AtomicInteger connects = new AtomicInteger();
    private final AtomicInteger starts = new AtomicInteger();
    private final AtomicInteger stopsSeen = new AtomicInteger();
    private final List<Receiver<? super T>> started = new CopyOnWriteArrayList<>();
    private volatile StopCallback callback;
    private final CountDownLatch firstStopSeen = new CountDownLatch(1);

    /** A sender that ignores stop requests. */
    public ManualSender() {
        this.watchStop = false;
        this.stopCompletesStopped = false;
    }

    /** A sender that counts stop requests and, if {@code stopCompletesStopped}, completes stopped on one. */
    public ManualSender(boolean stopCompletesStopped) {
        this.watchStop = true;
        this.stopCompletesStopped = stopCompletesStopped;
    }

    @Override
    public OperationState connect(Receiver<? super T> r) {
        connects.incrementAndGet();
        return () -> {
            starts.incrementAndGet();
            started.add(r);
            if (watchStop) {
                callback = r.env().stopToken().onStop(() -> {
                    stopsSeen.incrementAndGet();
                    firstStopSeen.countDown();
                    if (stopCompletesStopped) {
                        r.setStopped();
                    }
                });
            }
        };
    }

    /** How many times {@code connect} was called. */
    public int connects() {
        return connects.get();
    }

    /** How many operations were started. */
    public int starts() {
        return starts.get();
    }

    /** How many stop requests the started operations saw (0 unless made with {@link #ManualSender(boolean)}). */
    public int stopsSeen() {
        return stopsSeen.get();
    }

    /**
     * Waits until a started operation saw a stop request (made with {@link #ManualSender(boolean)}).
     *
     * @return false if none did within {@code timeout} (a hang guard)
     */
    public boolean awaitStopSeen(Duration timeout) throws InterruptedException {
        return firstStopSeen.await(timeout.toNanos(), TimeUnit.NANOSECONDS);
    }

    /** The receivers of the started operations, in start order (a live view). */
    public List<Receiver<? super T>> started() {
        return started;
    }

    /** The receiver of the latest started operation, or null if none was started. */
    public Receiver<? super T> receiver() {
        int n = started.size();
        return n == 0 ? null : started.get(n - 1);
    }

    /** The stop callback the latest start registered, or null. */
    public StopCallback callback() {
        return callback;
    }

    /** Completes the latest started operation with {@code value}. */
    public void complete(T value) {
        latest().setValue(value);
    }

    /** Completes the latest started operation with {@code error}. */
    public void fail(Throwable error) {
        latest().setError(error);
    }

    /** Completes the latest started operation with {@code setStopped()}. */
    public void stop() {
        latest().setStopped();
    }

    private Receiver<? super T> latest() {
        Receiver<? super T> r = receiver();
        if (r == null) {
            throw new AssertionError("no operation of this ManualSender was started");
        }
        return r;
    }
}
