package dev.senders.internal;

import dev.senders.internal.signal.Signals;
import dev.senders.Hooks;
import dev.senders.OperationState;
import dev.senders.Receiver;
import java.util.ArrayDeque;
import java.util.function.BiConsumer;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * A per-thread trampoline that runs work inline until a recursion depth is reached and queues it
 * beyond that, draining the queue in the outermost frame (stdexec's {@code trampoline_scheduler}).
 * Not public API: may change without notice.
 *
 * <p>It is what keeps long synchronous chains from growing the stack without bound, at no cost
 * while they are shallow: a recursive {@code letValue} loop over inline senders, a loop that
 * spawns the next piece of work from the completion of the previous one, a {@code Mono} nested in
 * a sender nested in a {@code Mono}, thousands of levels deep. Every place that starts an
 * operation, or delivers a completion, from inside another operation's start or completion can go
 * through it: all of them share one depth counter per thread. The adapters' fused round trips
 * subscribe through {@link #runFrame} and, from {@link #BREAK_DEPTH} frames deep, break their
 * other paths through {@link #run(BiConsumer, Object, Object)}.
 *
 * <p>Contract:
 * <ul>
 * <li>Work is run inline, on the calling thread, before the call returns, while this thread is
 *     fewer than {@code maxDepth} trampoline frames deep (the common case: nothing changes).
 * <li>Beyond that it is queued and run on the same thread, in order, when the outermost frame
 *     returns, or earlier, when the thread enters {@link #isolated} (a blocking wait): queued work
 *     never waits behind a blocking call of the frames it was queued from.
 * <li>Work that throws: inline, the exception propagates to the caller; queued, it is passed to
 *     {@link Hooks#onErrorDropped} (there is no caller left to throw to) and the rest of the queue
 *     still runs; {@link #start} completes the receiver with it instead.
 * </ul>
 *
 * <p>Allocation: none on the inline path of {@link #run(BiConsumer, Object, Object)} and
 * {@link #start} (pass a non-capturing function; its arguments are passed through), one small
 * object per queued item.
 */
public final class Trampoline {

    /** The depth beyond which work is queued: deep enough that shallow chains never queue. */
    public static final int DEFAULT_MAX_DEPTH = 16;

    private static final ThreadLocal<Trampoline> CURRENT = ThreadLocal.withInitial(Trampoline::new);

    private int depth;
    private @Nullable ArrayDeque<Runnable> queue;

    private Trampoline() {}

    /** Runs {@code work} now if this thread is less than {@code maxDepth} frames deep, else later on this thread. */
    public static void run(Runnable work, int maxDepth) {
        Trampoline t = CURRENT.get();
        if (t.depth >= maxDepth) {
            t.defer(work);
            return;
        }
        t.depth++;
        try {
            work.run();
        } finally {
            t.exit();
        }
    }

    /** {@link #run(Runnable, int)} with {@link #DEFAULT_MAX_DEPTH}. */
    public static void run(Runnable work) {
        run(work, DEFAULT_MAX_DEPTH);
    }

    /**
     * {@code step.accept(a, b)} now if this thread is less than {@link #DEFAULT_MAX_DEPTH} frames
     * deep, else later on this thread. With a non-capturing {@code step} (a static method
     * reference), the inline path allocates nothing.
     */
    public static <A, B> void run(BiConsumer<? super A, ? super B> step, A a, @Nullable B b) {
        run(step, step, a, b);
    }

    /**
     * Starts {@code op}, whose receiver is {@code receiver}, through the trampoline: inline while
     * shallow, queued beyond {@link #DEFAULT_MAX_DEPTH}. A {@code start()} that throws (P2300:
     * start must not): inline, the exception propagates to the caller, as from a plain
     * {@code op.start()}; queued, there is no caller, so it completes {@code receiver} with that
     * error (a fatal JVM error propagates). The inline path allocates nothing.
     */
    public static void start(OperationState op, Receiver<?> receiver) {
        run(Trampoline::startInline, Trampoline::startOrFail, op, receiver);
    }

    /**
     * The frame depth from which a crossing that does not go through the trampoline on its own
     * signal paths must break them: a fused round trip ({@code toMono(fromMono(m).then(f))}) passes
     * {@code subscribe}, {@code request}, the signals and {@code cancel} straight through, so nested
     * levels of it grow each of those paths by one level's frames. Subscribed in a frame this deep
     * or deeper ({@link #runFrame}), it puts a trampolined pass-through between itself and its
     * subscriber; nearer the top it needs none: at most {@code BREAK_DEPTH - 1} levels ever
     * follow one another on a path without a trampoline frame.
     */
    public static final int BREAK_DEPTH = 8;

    /** A step run as a trampoline frame ({@link #runFrame}) that is told how deep it runs. */
    @FunctionalInterface
    public interface Frame<A, B> {
        /**
         * @param depth how many trampoline frames this step runs in on this thread, its own
         *              included: 1 for the outermost, at most {@link #DEFAULT_MAX_DEPTH}
         */
        void run(A a, B b, int depth);
    }

    /**
     * {@code step.run(a, b, depth)} now if this thread is less than {@link #DEFAULT_MAX_DEPTH}
     * frames deep, else later on this thread (from the outermost frame, with the depth it then
     * runs at). With a non-capturing {@code step} the inline path allocates nothing.
     */
    public static <A, B> void runFrame(Frame<? super A, ? super B> step, A a, B b) {
        Trampoline t = CURRENT.get();
        int d = t.depth;
        if (d >= DEFAULT_MAX_DEPTH) {
            t.defer(() -> step.run(a, b, t.depth)); // drain() counts the frame the queued work runs in
            return;
        }
        t.depth = d + 1;
        try {
            step.run(a, b, d + 1);
        } finally {
            t.exit();
        }
    }

    /** {@code inline} now while shallow, else {@code queued} later on this thread. */
    private static <A, B> void run(BiConsumer<? super A, ? super B> inline, BiConsumer<? super A, ? super B> queued,
            A a, @Nullable B b) {
        Trampoline t = CURRENT.get();
        if (t.depth >= DEFAULT_MAX_DEPTH) {
            t.defer(() -> queued.accept(a, b));
            return;
        }
        t.depth++;
        try {
            inline.accept(a, b);
        } finally {
            t.exit();
        }
    }

    private static void startInline(OperationState op, Receiver<?> receiver) {
        op.start();
    }

    private static void startOrFail(OperationState op, Receiver<?> receiver) {
        try {
            op.start();
        } catch (Throwable t) {
            Signals.throwIfFatal(t);
            Signals.setError(receiver, t);
        }
    }

    /**
     * Runs {@code body} (a blocking wait, such as {@code syncWait}) on a fresh trampoline frame:
     * work it starts is never queued behind the deferred work of the frames it is nested in,
     * which could only run after it returns (a deadlock). Work those frames already queued is run
     * first, for the same reason (it would have run inline but for the depth). The outer frames'
     * depth and queue are restored afterwards.
     */
    public static <T> T isolated(Supplier<T> body) {
        Trampoline t = CURRENT.get();
        int savedDepth = t.depth;
        ArrayDeque<Runnable> savedQueue = t.queue;
        t.depth = 0;
        try {
            if (savedQueue != null && !savedQueue.isEmpty()) {
                t.drain();
            }
            t.queue = null;
            return body.get();
        } finally {
            t.depth = savedDepth;
            t.queue = savedQueue;
        }
    }

    private void defer(Runnable work) {
        ArrayDeque<Runnable> q = queue;
        if (q == null) {
            q = queue = new ArrayDeque<>();
        }
        q.addLast(work);
    }

    /** Leaves a frame; the outermost one drains what deeper frames queued, even if its work threw. */
    private void exit() {
        if (--depth == 0 && queue != null && !queue.isEmpty()) {
            drain();
        }
    }

    private void drain() {
        Runnable next;
        // drained only when there is queued work; isolated() puts the same queue back
        while ((next = Nulls.nonNull(queue).pollFirst()) != null) {
            depth++;
            try {
                next.run();
            } catch (Throwable t) {
                Signals.throwIfFatal(t);
                Hooks.onErrorDropped(t); // queued work has no caller left to throw to
            } finally {
                depth--;
            }
        }
    }
}
