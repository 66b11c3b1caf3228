package dev.senders;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Objects;
import java.util.concurrent.locks.LockSupport;

/**
 * A stop source whose callbacks live in the source itself ({@code in_place_stop_source}, P2300R3
 * [stopsource.inplace]).
 *
 * <p>{@link #requestStop()} may be called from any number of threads; the first call wins, runs
 * every registered callback exactly once on the calling thread, and returns {@code true}; later
 * calls return {@code false}. A callback registered after that runs inline on the registering
 * thread. {@link StopCallback#close()} deregisters in amortized constant time and, if the
 * callback is running on another thread, blocks until it has returned.
 *
 * <h2>Implementation notes</h2>
 *
 * The source is one word, {@code head}: {@code null} (no callbacks), a {@link Node} (the top of a
 * Treiber stack of registrations) or {@link #STOPPED}. Registration pushes with a CAS;
 * {@code requestStop} swaps in {@code STOPPED} and walks the list it took. Each node has its own
 * state word ({@code REGISTERED -> RUNNING -> DONE}, or {@code REGISTERED -> CANCELLED}), and the
 * stopper and a deregistering thread race on that word alone, so neither takes a lock.
 *
 * <p>Cancelled nodes are unlinked lazily: {@code counts} packs the number of linked nodes (high
 * 32 bits) and of cancelled-but-linked nodes (low 32 bits). When cancelled nodes make up half the
 * list, the deregistering thread that sees it (if no other thread is sweeping) unlinks them in
 * one pass. Only the sweeper rewrites {@code next} links, and it never unlinks the head node, so
 * pushers (which only touch {@code head}) and the stopper's walk (which tolerates both the old and
 * the new link) never conflict with it. That keeps memory proportional to live registrations and
 * the cost per registration O(1) amortized, whatever the churn.
 */
public final class InplaceStopSource {

    private static final Node STOPPED = new Node(null, null);
    private static final long ONE_LINKED = 1L << 32;
    private static final int SWEEP_MIN = 16;

    private volatile Node head;
    private volatile long counts;
    private volatile int sweeping;
    private final Token token = new Token(this);

    /** A source on which stop has not been requested. */
    public InplaceStopSource() {}

    /**
     * The token observing this source.
     *
     * @return the token observing this source
     */
    public StopToken token() {
        return token;
    }

    /**
     * Whether stop has been requested.
     *
     * @return {@code true} once stop has been requested
     */
    public boolean stopRequested() {
        return head == STOPPED;
    }

    /**
     * Requests stop: runs every registered callback on this thread, exactly once.
     *
     * @return {@code true} if this call made the request, {@code false} if stop was already requested
     */
    public boolean requestStop() {
        Node h = (Node) HEAD.getAndSet(this, STOPPED);
        if (h == STOPPED) {
            return false;
        }
        Thread me = Thread.currentThread();
        for (Node n = h; n != null; n = n.next) {
            if (NODE_STATE.compareAndSet(n, Node.REGISTERED, Node.RUNNING)) {
                n.runner = me;
                Runnable action = n.action;
                n.action = null;
                try {
                    action.run();
                } catch (Throwable t) {
                    Hooks.onErrorDropped(t);
                } finally {
                    n.finish();
                }
            }
        }
        return true;
    }

    StopCallback register(Runnable action) {
        Objects.requireNonNull(action, "callback");
        Node node = null;
        for (;;) {
            Node h = head;
            if (h == STOPPED) {
                runInline(action);
                return NeverStopToken.INSTANCE;
            }
            if (node == null) {
                node = new Node(this, action);
            }
            node.next = h;
            if (HEAD.compareAndSet(this, h, node)) {
                COUNTS.getAndAdd(this, ONE_LINKED);
                return node;
            }
        }
    }

    private static void runInline(Runnable action) {
        try {
            action.run();
        } catch (Throwable t) {
            Hooks.onErrorDropped(t);
        }
    }

    /** Called once per node that went REGISTERED -> CANCELLED. */
    private void onCancelled() {
        long c = (long) COUNTS.getAndAdd(this, 1L) + 1L;
        int cancelled = (int) c;
        int linked = (int) (c >>> 32);
        if (cancelled >= SWEEP_MIN && cancelled * 2 >= linked
                && SWEEPING.compareAndSet(this, 0, 1)) {
            try {
                sweep();
            } finally {
                sweeping = 0;
            }
        }
    }

    private void sweep() {
        Node p = head;
        if (p == null || p == STOPPED) {
            return;
        }
        int removed = 0;
        for (Node q = p.next; q != null; q = q.next) {
            if (q.state == Node.CANCELLED) {
                p.next = q.next;
                removed++;
            } else {
                p = q;
            }
        }
        if (removed != 0) {
            COUNTS.getAndAdd(this, -(removed * ONE_LINKED + removed));
        }
    }

    @Override
    public String toString() {
        return "InplaceStopSource[" + (stopRequested() ? "stopped" : "not stopped") + "]";
    }

    /** One registration: its own state word is what the stopper and the closer race on. */
    static final class Node implements StopCallback {
        static final int REGISTERED = 0, RUNNING = 1, DONE = 2, CANCELLED = 3;

        final InplaceStopSource source;
        Runnable action;          // cleared once it ran or was cancelled, to free what it holds
        volatile Node next;       // set before publication; afterwards only the sweeper writes it
        volatile int state;
        volatile Thread runner;   // the stopper's thread, set right after it claimed the node
        volatile Waiter waiters;  // closers waiting for the running callback (any number: close is idempotent)

        Node(InplaceStopSource source, Runnable action) {
            this.source = source;
            this.action = action;
        }

        void finish() {
            state = DONE;
            runner = null;
            for (Waiter w = (Waiter) WAITERS.getAndSet(this, null); w != null; w = w.next) {
                LockSupport.unpark(w.thread);
            }
        }

        @Override
        public void close() {
            if (NODE_STATE.compareAndSet(this, REGISTERED, CANCELLED)) {
                action = null;
                source.onCancelled();
                return;
            }
            if (state == RUNNING && runner != Thread.currentThread()) {
                awaitDone();
            }
        }

        /**
         * Parks until the running callback is done. Closers push themselves on {@code waiters}
         * before reading {@code state}; {@code finish} writes {@code state} before taking the
         * stack: with both volatile, either the closer sees DONE or {@code finish} sees (and
         * unparks) the closer, so no wake-up is lost, however many threads close at once.
         */
        private void awaitDone() {
            Thread me = Thread.currentThread();
            Waiter w = new Waiter(me);
            do {
                w.next = waiters;
            } while (!WAITERS.compareAndSet(this, w.next, w));
            boolean interrupted = false;
            while (state != DONE) {
                LockSupport.park(this);
                if (Thread.interrupted()) {
                    interrupted = true;
                }
            }
            if (interrupted) {
                me.interrupt();
            }
        }
    }

    /** A closer parked until a running callback is done. */
    static final class Waiter {
        final Thread thread;
        Waiter next;

        Waiter(Thread thread) {
            this.thread = thread;
        }
    }

    /** The token: a view of the source. */
    static final class Token implements StopToken {
        private final InplaceStopSource source;

        Token(InplaceStopSource source) {
            this.source = source;
        }

        @Override
        public boolean stopRequested() {
            return source.stopRequested();
        }

        @Override
        public boolean stopPossible() {
            return true;
        }

        @Override
        public StopCallback onStop(Runnable callback) {
            return source.register(callback);
        }

        @Override
        public String toString() {
            return "StopToken[" + (stopRequested() ? "stop requested" : "no stop requested") + "]";
        }
    }

    private static final VarHandle HEAD;
    private static final VarHandle COUNTS;
    private static final VarHandle SWEEPING;
    private static final VarHandle NODE_STATE;
    private static final VarHandle WAITERS;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            HEAD = l.findVarHandle(InplaceStopSource.class, "head", Node.class);
            COUNTS = l.findVarHandle(InplaceStopSource.class, "counts", long.class);
            SWEEPING = l.findVarHandle(InplaceStopSource.class, "sweeping", int.class);
            NODE_STATE = l.findVarHandle(Node.class, "state", int.class);
            WAITERS = l.findVarHandle(Node.class, "waiters", Waiter.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
