package dev.senders;

import java.util.ArrayDeque;

/**
 * A per-thread trampoline that runs work inline until a recursion depth is reached and queues it
 * beyond that, draining the queue in the outermost frame (stdexec's {@code trampoline_scheduler}).
 * It is what keeps long synchronous chains (a recursive {@code letValue} loop over inline senders)
 * from growing the stack without bound, at no cost while chains are shallow.
 */
final class Trampoline {

    static final int DEFAULT_MAX_DEPTH = 16;

    private static final ThreadLocal<Trampoline> CURRENT = ThreadLocal.withInitial(Trampoline::new);

    private int depth;
    private ArrayDeque<Runnable> queue;

    private Trampoline() {}

    /** Runs {@code work} now if this thread is less than {@code maxDepth} frames deep, else later on this thread. */
    static void run(Runnable work, int maxDepth) {
        Trampoline t = CURRENT.get();
        if (t.depth >= maxDepth) {
            if (t.queue == null) {
                t.queue = new ArrayDeque<>();
            }
            t.queue.addLast(work);
            return;
        }
        t.depth++;
        try {
            work.run();
        } finally {
            t.depth--;
        }
        if (t.depth == 0 && t.queue != null) {
            t.drain();
        }
    }

    static void run(Runnable work) {
        run(work, DEFAULT_MAX_DEPTH);
    }

    /**
     * Runs {@code body} (a blocking wait, such as {@code syncWait}) on a fresh trampoline frame:
     * work it starts is never queued behind the deferred work of the frames it is nested in,
     * which could only run after it returns (a deadlock). The outer frames' queue is restored
     * afterwards.
     */
    static <T> T isolated(java.util.function.Supplier<T> body) {
        Trampoline t = CURRENT.get();
        int savedDepth = t.depth;
        ArrayDeque<Runnable> savedQueue = t.queue;
        t.depth = 0;
        t.queue = null;
        try {
            return body.get();
        } finally {
            t.depth = savedDepth;
            t.queue = savedQueue;
        }
    }

    private void drain() {
        Runnable next;
        while ((next = queue.pollFirst()) != null) {
            depth++;
            try {
                next.run();
            } finally {
                depth--;
            }
        }
    }
}
