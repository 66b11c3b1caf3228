package dev.senders.stress.lincheck;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The signals a receiver or subscriber got, in arrival order, each with the thread that delivered
 * it. It lets a boundary scenario return, as an operation's result, the signals that arrived
 * <em>during that call</em>: those the calling thread appended after the call's {@link #mark()}.
 * The state machines deliver a signal on the thread of the step that decided it, inside that
 * step's call, so "what this call delivered" is one step's effect and comparable with a
 * sequential specification, where "what the receiver has seen so far" would not be (a decided
 * signal may not have arrived yet when another thread looks).
 */
final class SignalLog {

    /** What an operation returns when its call delivered nothing. */
    static final String NONE = "-";

    private static final int CAPACITY = 64;

    private final AtomicReferenceArray<Object[]> entries = new AtomicReferenceArray<>(CAPACITY);
    private final AtomicInteger size = new AtomicInteger();

    /** Appends {@code signal}, delivered by the current thread. */
    void add(String signal) {
        int i = size.getAndIncrement();
        if (i >= CAPACITY) {
            throw new AssertionError("more than " + CAPACITY + " signals: " + all());
        }
        entries.set(i, new Object[] {Thread.currentThread(), signal});
    }

    /** Appends {@code error:} and the error's simple class name (what the scenarios compare). */
    void addError(Throwable e) {
        add("error:" + e.getClass().getSimpleName());
    }

    /** Where the log ends now; pass it to {@link #since} when the call returns. */
    int mark() {
        return size.get();
    }

    /**
     * The signals the current thread appended since {@code mark}, joined with commas, or
     * {@link #NONE}. (Another thread's appends may interleave; they are not this call's.)
     */
    String since(int mark) {
        Thread me = Thread.currentThread();
        StringBuilder b = new StringBuilder();
        int n = Math.min(size.get(), CAPACITY);
        for (int i = mark; i < n; i++) {
            Object[] e = entries.get(i);
            if (e != null && e[0] == me) {
                b.append(b.length() == 0 ? "" : ",").append(e[1]);
            }
        }
        return b.length() == 0 ? NONE : b.toString();
    }

    /** Every signal, in order (for invariants and messages). */
    List<String> all() {
        List<String> out = new ArrayList<>();
        int n = Math.min(size.get(), CAPACITY);
        for (int i = 0; i < n; i++) {
            Object[] e = entries.get(i);
            out.add(e == null ? "?" : (String) e[1]);
        }
        return out;
    }

    @Override
    public String toString() {
        return all().toString();
    }
}
