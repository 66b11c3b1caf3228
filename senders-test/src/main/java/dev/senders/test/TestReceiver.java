package dev.senders.test;

import dev.senders.Env;
import dev.senders.InplaceStopSource;
import dev.senders.Query;
import dev.senders.Receiver;
import dev.senders.Sender;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * A receiver that records the completion of the sender it is connected to, for assertions: what
 * RxJava's {@code TestObserver} is for an observable and reactor-test's {@code StepVerifier} for a
 * publisher. {@link #start(Sender)} connects and starts a sender; {@link #await(Duration)} waits
 * for its completion; the {@code assert...} methods check it and return this receiver, so they
 * chain:
 *
 * <pre>{@code
 * TestReceiver.start(lookup.timeout(Duration.ofSeconds(1)))
 *     .await()
 *     .assertError(TimeoutException.class)
 *     .assertErrorMessage("timeout: the work did not complete within 1 s (stop was requested on it at the deadline)");
 * }</pre>
 *
 * <p>A sender must complete exactly once. Every assertion about the completion fails when there
 * were two or more (a protocol violation), and its message shows every signal received, with the
 * thread that sent it; {@link #assertNotCompleted()} fails on any. The receiver's env holds the
 * stop token of its own {@link InplaceStopSource}, which {@link #requestStop()} fires (on the
 * calling thread, which runs the sender's stop callbacks).
 *
 * <p>Thread-safe: signals may arrive on any thread while the test thread waits and asserts. A
 * failed assertion is an {@link AssertionError}.
 */
public final class TestReceiver<T> implements Receiver<T> {

    /** The three completion channels. */
    public enum Kind {
        /** {@code setValue}. */
        VALUE,
        /** {@code setError}. */
        ERROR,
        /** {@code setStopped}. */
        STOPPED
    }

    /**
     * One recorded completion.
     *
     * @param kind which channel
     * @param payload the value, the error, or {@code null} for stopped
     * @param thread the thread that delivered it
     */
    public record Signal(Kind kind, @Nullable Object payload, Thread thread) {
        /**
         * Checks the components.
         *
         * @param kind which channel
         * @param payload the value, the error, or {@code null} for stopped
         * @param thread the thread that delivered it
         */
        public Signal {
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(thread, "thread");
        }

        @Override
        public String toString() {
            return kind + (kind == Kind.STOPPED ? "" : "(" + payload + ")") + " on " + thread.getName();
        }
    }

    /** How long {@link #await()} waits: a bound on a hang, never an asserted time. */
    public static final Duration DEFAULT_AWAIT = Duration.ofSeconds(10);

    private final List<Signal> signals = new ArrayList<>(1); // guarded by this
    private final CountDownLatch done = new CountDownLatch(1);
    private final InplaceStopSource stopSource = new InplaceStopSource();
    private final Env env;

    /** A receiver whose env holds only the stop token of its own stop source. */
    public TestReceiver() {
        this(Env.empty());
    }

    /**
     * A receiver whose env is {@code env} with the stop token of its own stop source.
     *
     * @param env what else the connected sender may query (a scheduler, a context)
     */
    public TestReceiver(Env env) {
        this.env = Objects.requireNonNull(env, "env").with(Query.STOP_TOKEN, stopSource.token());
    }

    /**
     * Connects {@code sender} to a new receiver and starts it on the calling thread.
     *
     * @param <T> the value type
     * @param sender the sender under test
     * @return the receiver, which may already hold the completion (a sender may complete in start)
     */
    public static <T> TestReceiver<T> start(Sender<T> sender) {
        return new TestReceiver<T>().startOn(sender);
    }

    /**
     * Connects {@code sender} to this receiver and starts it on the calling thread.
     *
     * @param sender the sender under test
     * @return this receiver
     */
    public TestReceiver<T> startOn(Sender<? extends T> sender) {
        Objects.requireNonNull(sender, "sender");
        sender.connect(this).start();
        return this;
    }

    // ------------------------------------------------------------------ Receiver

    /** Records a value completion; called by the sender. */
    @Override
    public void setValue(@Nullable T value) {
        record(Kind.VALUE, value);
    }

    /** Records an error completion; called by the sender. */
    @Override
    public void setError(Throwable error) {
        record(Kind.ERROR, error);
    }

    /** Records a stopped completion; called by the sender. */
    @Override
    public void setStopped() {
        record(Kind.STOPPED, null);
    }

    /** The env given at construction, with this receiver's stop token. */
    @Override
    public Env env() {
        return env;
    }

    private void record(Kind kind, @Nullable Object payload) {
        Signal s = new Signal(kind, payload, Thread.currentThread());
        synchronized (this) {
            signals.add(s);
        }
        done.countDown();
    }

    // ------------------------------------------------------------------ stop

    /**
     * Requests stop on the sender through this receiver's stop token. Its stop callbacks run on
     * the calling thread.
     *
     * @return {@code true} if this call made the request (false if stop was already requested)
     */
    public boolean requestStop() {
        return stopSource.requestStop();
    }

    // ------------------------------------------------------------------ waiting

    /**
     * Waits up to {@link #DEFAULT_AWAIT} for the completion.
     *
     * @return this receiver
     * @throws AssertionError if none came in time
     */
    public TestReceiver<T> await() {
        return await(DEFAULT_AWAIT);
    }

    /**
     * Waits up to {@code timeout} (on the real clock) for the completion.
     *
     * @param timeout how long to wait
     * @return this receiver
     * @throws AssertionError if none came in time, or the waiting thread was interrupted
     */
    public TestReceiver<T> await(Duration timeout) {
        Objects.requireNonNull(timeout, "timeout");
        try {
            if (!done.await(timeout.toNanos(), TimeUnit.NANOSECONDS)) {
                throw new AssertionError("the sender did not complete within " + TestDurations.format(timeout));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while waiting for the sender to complete", e);
        }
        return this;
    }

    // ------------------------------------------------------------------ what was received

    /**
     * Every completion received, in order (more than one is a protocol violation).
     *
     * @return a copy of the signals
     */
    public synchronized List<Signal> signals() {
        return List.copyOf(signals);
    }

    /**
     * Whether a completion has been received.
     *
     * @return {@code true} once the sender completed
     */
    public boolean isCompleted() {
        return done.getCount() == 0;
    }

    /**
     * The value of the one completion.
     *
     * @return the value
     * @throws AssertionError unless exactly one completion came and it was a value
     */
    @SuppressWarnings("unchecked")
    public @Nullable T value() {
        return (T) only(Kind.VALUE).payload();
    }

    /**
     * The error of the one completion.
     *
     * @return the error
     * @throws AssertionError unless exactly one completion came and it was an error
     */
    public Throwable error() {
        return (Throwable) Objects.requireNonNull(only(Kind.ERROR).payload()); // an error signal carries its error
    }

    // ------------------------------------------------------------------ assertions

    /**
     * Exactly one completion, a value equal to {@code expected}.
     *
     * @param expected the expected value (may be {@code null})
     * @return this receiver
     */
    public TestReceiver<T> assertValue(T expected) {
        Object v = only(Kind.VALUE).payload();
        if (!Objects.equals(expected, v)) {
            throw new AssertionError("expected the value <" + expected + "> but got <" + v + ">");
        }
        return this;
    }

    /**
     * Exactly one completion, a value that {@code check} accepts.
     *
     * @param check the test of the value
     * @return this receiver
     */
    public TestReceiver<T> assertValue(Predicate<? super T> check) {
        Objects.requireNonNull(check, "check");
        T v = value();
        if (!check.test(v)) {
            throw new AssertionError("the value <" + v + "> does not match the predicate");
        }
        return this;
    }

    /**
     * Exactly one completion, an error that is an instance of {@code type}.
     *
     * @param type the expected error type
     * @return this receiver
     */
    public TestReceiver<T> assertError(Class<? extends Throwable> type) {
        Objects.requireNonNull(type, "type");
        Throwable e = error();
        if (!type.isInstance(e)) {
            throw new AssertionError("expected an error of type " + type.getName() + " but got " + e, e);
        }
        return this;
    }

    /**
     * Exactly one completion, an error whose message equals {@code message}.
     *
     * @param message the expected message
     * @return this receiver
     */
    public TestReceiver<T> assertErrorMessage(String message) {
        Throwable e = error();
        if (!Objects.equals(message, e.getMessage())) {
            throw new AssertionError("expected the error message <" + message + "> but got <" + e.getMessage() + ">", e);
        }
        return this;
    }

    /**
     * Exactly one completion, an error that {@code check} accepts.
     *
     * @param check the test of the error
     * @return this receiver
     */
    public TestReceiver<T> assertError(Predicate<? super Throwable> check) {
        Objects.requireNonNull(check, "check");
        Throwable e = error();
        if (!check.test(e)) {
            throw new AssertionError("the error " + e + " does not match the predicate", e);
        }
        return this;
    }

    /**
     * Exactly one completion, stopped.
     *
     * @return this receiver
     */
    public TestReceiver<T> assertStopped() {
        only(Kind.STOPPED);
        return this;
    }

    /**
     * No completion yet.
     *
     * @return this receiver
     */
    public TestReceiver<T> assertNotCompleted() {
        List<Signal> got = signals();
        if (!got.isEmpty()) {
            throw new AssertionError("expected no completion yet but got " + describe(got), errorOf(got));
        }
        return this;
    }

    private Signal only(Kind expected) {
        List<Signal> got = signals();
        if (got.size() != 1) {
            String what = got.isEmpty() ? "no completion (await() first?)"
                    : got.size() + " completions, a protocol violation: a sender completes once: " + describe(got);
            throw new AssertionError("expected one " + expected + " completion but got " + what, errorOf(got));
        }
        Signal s = got.get(0);
        if (s.kind() != expected) {
            throw new AssertionError("expected a " + expected + " completion but got " + s, errorOf(got));
        }
        return s;
    }

    private static String describe(List<Signal> got) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < got.size(); i++) {
            sb.append(i == 0 ? "" : ", then ").append(got.get(i));
        }
        return sb.toString();
    }

    private static @Nullable Throwable errorOf(List<Signal> got) {
        for (Signal s : got) {
            if (s.kind() == Kind.ERROR) {
                return (Throwable) s.payload();
            }
        }
        return null;
    }

    @Override
    public String toString() {
        return "TestReceiver" + signals();
    }
}
