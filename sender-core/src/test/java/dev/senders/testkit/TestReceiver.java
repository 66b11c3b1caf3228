package dev.senders.testkit;

import dev.senders.Env;
import dev.senders.InplaceStopSource;
import dev.senders.Query;
import dev.senders.Receiver;
import dev.senders.Sender;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A receiver that records every signal it gets (kind, payload, thread), for assertions. Thread-safe.
 * A second completion (a protocol violation) is recorded too and visible in {@link #completions()}
 * and {@link #signals()}; the accessors {@link #kind()}, {@link #thread()} describe the latest
 * signal, {@link #value()} / {@link #error()} the latest value / error.
 *
 * <p>Env: {@link Env#empty()} or the one given; {@link #withStopSource()} adds the token of a stop
 * source this receiver owns ({@link #requestStop()}). Not final: a test may override a signal
 * method (e.g. to throw after {@code super.setValue(v)}) to play a misbehaving receiver.
 *
 * <p>Test support, not published API (see package-info). JDK only: failures are {@link AssertionError}s.
 */
public class TestReceiver<T> implements Receiver<T> {

    /** The three completion channels. */
    public enum Kind { VALUE, ERROR, STOPPED }

    /** One recorded signal: its kind, payload (value, error or null) and the thread that sent it. */
    public record Signal(Kind kind, Object payload, Thread thread) {
        @Override
        public String toString() {
            return kind + "(" + payload + ")@" + thread.getName();
        }
    }

    /** Hang guard of {@link #await()}: only ever a bound on a wait, never an asserted time. */
    public static final long HANG_GUARD_SECONDS = 10;

    private final List<Signal> signals = new ArrayList<>();
    private final CountDownLatch done = new CountDownLatch(1);
    private final InplaceStopSource stopSource;
    private final Env env;
    private volatile Signal last;
    private volatile T value;
    private volatile Throwable error;

    /** A receiver with {@link Env#empty()}. */
    public TestReceiver() {
        this(Env.empty());
    }

    /** A receiver with the given env (and no stop source of its own). */
    public TestReceiver(Env env) {
        this(env, null);
    }

    /**
     * A receiver whose env is {@code env} plus, if {@code stopSource} is not null, that source's token
     * (for anonymous subclasses; otherwise prefer {@link #withStopSource(Env)}).
     */
    public TestReceiver(Env env, InplaceStopSource stopSource) {
        Objects.requireNonNull(env, "env");
        this.stopSource = stopSource;
        this.env = stopSource == null ? env : env.with(Query.STOP_TOKEN, stopSource.token());
    }

    /** A receiver whose env holds the stop token of its own {@link #stopSource()}. */
    public static <T> TestReceiver<T> withStopSource() {
        return withStopSource(Env.empty());
    }

    /** {@code base} plus the stop token of this receiver's own {@link #stopSource()}. */
    public static <T> TestReceiver<T> withStopSource(Env base) {
        return new TestReceiver<>(base, new InplaceStopSource());
    }

    /** A receiver whose env holds {@code token} as its stop token. */
    public static <T> TestReceiver<T> withStopToken(dev.senders.StopToken token) {
        return new TestReceiver<>(Env.of(Query.STOP_TOKEN, token));
    }

    /** Connects {@code sender} to a new {@link #withStopSource()} receiver and starts it. */
    public static <T> TestReceiver<T> start(Sender<T> sender) {
        return startWith(sender, withStopSource());
    }

    /** Connects {@code sender} to {@code receiver}, starts it and returns the receiver. */
    public static <T, R extends TestReceiver<T>> R startWith(Sender<T> sender, R receiver) {
        sender.connect(receiver).start();
        return receiver;
    }

    // ---- Receiver

    @Override
    public void setValue(T v) {
        value = v;
        record(Kind.VALUE, v);
    }

    @Override
    public void setError(Throwable e) {
        error = e;
        record(Kind.ERROR, e);
    }

    @Override
    public void setStopped() {
        record(Kind.STOPPED, null);
    }

    @Override
    public Env env() {
        return env;
    }

    private void record(Kind kind, Object payload) {
        Signal s = new Signal(kind, payload, Thread.currentThread());
        synchronized (this) {
            signals.add(s);
        }
        last = s;
        done.countDown();
    }

    // ---- stop source

    /** The stop source whose token is in {@link #env()}; fails if this receiver has none. */
    public InplaceStopSource stopSource() {
        if (stopSource == null) {
            throw new IllegalStateException("made without a stop source: use TestReceiver.withStopSource()");
        }
        return stopSource;
    }

    /** {@code stopSource().requestStop()}. */
    public boolean requestStop() {
        return stopSource().requestStop();
    }

    // ---- what was received

    /** A copy of every signal received, in order. */
    public synchronized List<Signal> signals() {
        return new ArrayList<>(signals);
    }

    /** The kinds of every signal received, in order. */
    public synchronized List<Kind> kinds() {
        List<Kind> kinds = new ArrayList<>(signals.size());
        for (Signal s : signals) {
            kinds.add(s.kind());
        }
        return kinds;
    }

    /** How many signals (completions) were received; more than one is a protocol violation. */
    public synchronized int completions() {
        return signals.size();
    }

    /** Whether at least one signal was received. */
    public boolean isDone() {
        return done.getCount() == 0;
    }

    /** The kind of the latest signal, or null if none. */
    public Kind kind() {
        Signal s = last;
        return s == null ? null : s.kind();
    }

    /** The thread of the latest signal, or null if none. */
    public Thread thread() {
        Signal s = last;
        return s == null ? null : s.thread();
    }

    /** The latest value received, or null. */
    public T value() {
        return value;
    }

    /** The latest error received, or null. */
    public Throwable error() {
        return error;
    }

    /** The one signal received; fails if there are zero or several. */
    public synchronized Signal single() {
        if (signals.size() != 1) {
            throw new AssertionError("expected exactly one signal, got " + signals);
        }
        return signals.get(0);
    }

    // ---- waiting (hang guards only)

    /** Waits up to {@code timeout} for the first signal; true if it came. */
    public boolean await(long timeout, TimeUnit unit) throws InterruptedException {
        return done.await(timeout, unit);
    }

    /** Waits (hang guard, {@value #HANG_GUARD_SECONDS} s) for the first signal; fails if none came. */
    public TestReceiver<T> await() {
        try {
            if (!done.await(HANG_GUARD_SECONDS, TimeUnit.SECONDS)) {
                throw new AssertionError("no completion within " + HANG_GUARD_SECONDS + " s (hang guard)");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
        return this;
    }

    /** Waits for the first signal and returns its kind (the first signal's, even if more came). */
    public Kind awaitKind() {
        await();
        synchronized (this) {
            return signals.get(0).kind();
        }
    }

    /** Waits for the first signal, then checks that exactly one came and it is of {@code expected} kind. */
    public TestReceiver<T> awaitSignal(Kind expected) {
        await();
        assertKindOnce(expected);
        return this;
    }

    /** Waits for the first signal and returns it, checking that it is the only one. */
    public Signal awaitSingle() {
        await();
        return single();
    }

    // ---- assertions

    /** Exactly one completion, a value equal to {@code expected}. */
    public void assertValue(T expected) {
        assertKindOnce(Kind.VALUE);
        if (!Objects.equals(expected, value)) {
            throw new AssertionError("value: expected <" + expected + "> but was <" + value + ">");
        }
    }

    /** Exactly one completion, an error of type {@code type}. */
    public void assertError(Class<? extends Throwable> type) {
        assertKindOnce(Kind.ERROR);
        if (!type.isInstance(error)) {
            throw new AssertionError("error: expected a " + type.getName() + " but was " + error, error);
        }
    }

    /** Exactly one completion, stopped. */
    public void assertStopped() {
        assertKindOnce(Kind.STOPPED);
    }

    /** No completion at all. */
    public void assertNotCompleted() {
        if (completions() != 0) {
            throw new AssertionError("expected no completion, got " + signals());
        }
    }

    private void assertKindOnce(Kind expected) {
        List<Signal> got = signals();
        if (got.size() != 1) {
            throw new AssertionError("completions: expected 1 but got " + got, error);
        }
        if (got.get(0).kind() != expected) {
            throw new AssertionError("kind: expected " + expected + " but got " + got.get(0), error);
        }
    }

    @Override
    public String toString() {
        return "TestReceiver" + signals();
    }
}
