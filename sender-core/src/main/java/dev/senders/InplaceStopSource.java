package dev.senders;

import dev.senders.internal.signal.CallbackNode;
import dev.senders.internal.signal.StopNode;
import dev.senders.internal.VarHandles;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import dev.senders.internal.Nulls;

/**
 * A stop source whose callbacks live in the source itself ({@code in_place_stop_source}, P2300R3
 * [stopsource.inplace]).
 *
 * <p>{@link #requestStop()} may be called from any number of threads; the first call wins, runs
 * every registered callback exactly once on the calling thread, and returns {@code true}; later
 * calls return {@code false}. A callback registered after that runs inline on the registering
 * thread. {@link StopCallback#close()} deregisters in amortized constant time and, if the
 * callback is running on another thread, blocks until it has returned.
 */
public final class InplaceStopSource {

    /*
     * Implementation notes.
     *
     * The source is one word, head: null (no callbacks), a StopNode (the top
     * of a Treiber stack of registrations) or a Stopped record (stop was requested; it names
     * the stopping thread and holds the closers waiting for a running callback). Registration pushes
     * with a CAS; requestStop swaps in its Stopped record and walks the list it took.
     * Each registration has its own state word (REGISTERED -> RUNNING -> DONE, or
     * REGISTERED -> CANCELLED; see StopNode), and the stopper and a deregistering
     * thread race on that word alone, so neither takes a lock.
     *
     *
     * A registration is either this class's Node (the callback, the link, the
     * state, the source) or an object that is its own registration (StopNode: the library's
     * per-operation objects link themselves through StopNode.Host, allocating nothing). What a
     * node needs only while its callback runs (who runs it, who waits for it) is kept once per source
     * in the Stopped record: callbacks run one at a time, on the one stopping thread.
     *
     *
     * Cancelled nodes are unlinked lazily, except the head: a node cancelled while it is the head
     * is popped at once (a CAS of head to its successor; a node is linked once and never
     * again, so the pop has no ABA), which covers registrations ended in last-in, first-out order,
     * the common case. The others stay linked and are counted in cancelled; when that count
     * reaches sweepAt (the list's length after the previous sweep, at least
     * SWEEP_MIN), the deregistering thread that sees it (if no other thread is sweeping)
     * unlinks every cancelled node in one pass and sets sweepAt to the length it left. A
     * sweep walks at most the nodes left by the previous one plus those pushed since, and comes after
     * at least as many cancellations as the previous one left nodes: O(1) amortized per registration,
     * and cancelled nodes never outnumber the live ones of the last sweep (or 16). Only the sweeper
     * rewrites next links, and it never unlinks the head node, so pushers and poppers (which
     * only touch head) and the stopper's walk (which tolerates both the old and the new link)
     * never lose a node to it; a sweep walking from a node popped meanwhile just stops early.
     * Registering costs one CAS (the push); deregistering one CAS on the node's word, then the pop
     * or the count.
     */

    private static final int SWEEP_MIN = 16;
    private static final int WALK_RETRIES = 3;

    private volatile @Nullable StopNode head;
    /** Cancelled nodes still linked (approximately: see the implementation notes). */
    private volatile int cancelled;
    /** When {@code cancelled} reaches this, sweep; written by the sweeper only. */
    private volatile int sweepAt = SWEEP_MIN;
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
        return head instanceof Stopped;
    }

    /**
     * Requests stop: runs every registered callback on this thread, exactly once.
     *
     * @return {@code true} if this call made the request, {@code false} if stop was already requested
     */
    public boolean requestStop() {
        Stopped stopped = null;
        StopNode h;
        for (;;) {
            h = head;
            if (h instanceof Stopped) {
                return false;
            }
            if (stopped == null) {
                stopped = new Stopped(Thread.currentThread());
            }
            if (HEAD.compareAndSet(this, h, stopped)) {
                break;
            }
        }
        for (StopNode n = h; n != null; n = n.nextNode()) {
            if (StopNode.transition(n, StopNode.REGISTERED, StopNode.RUNNING)) {
                try {
                    n.onStopRequested();
                } catch (Throwable t) {
                    Hooks.onErrorDropped(t);
                } finally {
                    StopNode.transition(n, StopNode.RUNNING, StopNode.DONE);
                    stopped.wakeWaiters();
                }
            }
        }
        return true;
    }

    /** {@link StopToken#onStop}: a {@link Node} for the callback, or an inline run after stop. */
    StopCallback register(Runnable action) {
        Objects.requireNonNull(action, "callback");
        if (head instanceof Stopped) {
            runInline(action);
            return NeverStopToken.INSTANCE;
        }
        Node node = new Node(token, action);
        return link(node) ? node : NeverStopToken.INSTANCE;
    }

    /** {@link StopNode.Host#link}: push a REGISTERED node, or run it inline (DONE) after stop. */
    boolean link(StopNode node) {
        for (;;) {
            StopNode h = head;
            if (h instanceof Stopped) {
                if (StopNode.transition(node, StopNode.REGISTERED, StopNode.DONE)) {
                    try {
                        node.onStopRequested();
                    } catch (Throwable t) {
                        Hooks.onErrorDropped(t);
                    }
                }
                return false;
            }
            node.nextNode(h);
            if (HEAD.compareAndSet(this, h, node)) {
                return true;
            }
        }
    }

    /** {@link StopNode.Host#unlink}: cancel a REGISTERED node; wait for a RUNNING one (not our own). */
    void unlink(StopNode node) {
        for (;;) {
            int w = node.nodeWord();
            int state = w & StopNode.MASK;
            if (state == StopNode.REGISTERED) {
                if (node.casNodeWord(w, (w & ~StopNode.MASK) | StopNode.CANCELLED)) {
                    cancelled(node);
                    return;
                }
            } else {
                if (state == StopNode.RUNNING) {
                    StopNode h = head; // a node runs only after stop was requested: h is the Stopped record
                    Stopped stopped = (Stopped) Nulls.nonNull(h);
                    if (stopped.runner != Thread.currentThread()) {
                        stopped.awaitDone(node);
                    }
                }
                return; // FREE, DONE, CANCELLED, or closing from inside the callback itself
            }
        }
    }

    /**
     * {@link StopNode.Host#cancelled}: {@code node} went REGISTERED -> CANCELLED (by
     * {@link #unlink} or by its owner's own CAS): pop it if it is the head, else count it.
     */
    void cancelled(StopNode node) {
        if (head == node && HEAD.compareAndSet(this, node, node.nextNode())) {
            // popped: the common last-in, first-out case. Nothing walks from it any more (a sweep
            // that started there stops early): drop its link to the list
            node.nextNode(null);
            return;
        }
        int c = (int) CANCELLED.getAndAdd(this, 1) + 1;
        if (c >= sweepAt && SWEEPING.compareAndSet(this, 0, 1)) {
            try {
                sweep();
            } finally {
                sweeping = 0;
            }
        }
    }

    /**
     * {@link StopNode.Host#forEachRegistered}: walks the list from the head, passing each node
     * that is {@code REGISTERED} when read. A node popped while the walk stands on it has had its
     * link cleared, so the walk can end early there (every node it passed before is then
     * deregistered: only cancelled nodes above it can have been taken off); when the list ends at
     * a node that is not registered and the head moved meanwhile, the walk starts again from the
     * head, at most {@value #WALK_RETRIES} times, passing only nodes it did not pass before.
     */
    void forEachRegistered(Consumer<? super StopNode> action) {
        Set<StopNode> passed = Collections.newSetFromMap(new IdentityHashMap<>());
        for (int attempt = 0; attempt <= WALK_RETRIES; attempt++) {
            StopNode h = head;
            if (h == null || h instanceof Stopped) {
                return;
            }
            StopNode last = h;
            for (StopNode n = h; n != null; n = n.nextNode()) {
                last = n;
                if ((n.nodeWord() & StopNode.MASK) == StopNode.REGISTERED && passed.add(n)) {
                    action.accept(n);
                }
            }
            if ((last.nodeWord() & StopNode.MASK) == StopNode.REGISTERED || head == h) {
                return; // the list's real end
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

    private void sweep() {
        StopNode p = head;
        if (p == null || p instanceof Stopped) {
            return;
        }
        int removed = 0;
        int left = 1;
        for (StopNode q = p.nextNode(); q != null; q = q.nextNode()) {
            if ((q.nodeWord() & StopNode.MASK) == StopNode.CANCELLED) {
                p.nextNode(q.nextNode());
                removed++;
            } else {
                p = q;
                left++;
            }
        }
        sweepAt = Math.max(SWEEP_MIN, left);
        if (removed != 0) {
            CANCELLED.getAndAdd(this, -removed);
        }
    }

    @Override
    public String toString() {
        return "InplaceStopSource[" + (stopRequested() ? "stopped" : "not stopped") + "]";
    }

    /**
     * The registration made by {@link StopToken#onStop(Runnable)}: its state word, the link, the
     * callback and the token that links it (for {@code close}).
     */
    static final class Node implements CallbackNode {
        private final Token host;
        private @Nullable Runnable action;      // cleared once it ran or was cancelled, to free what it holds
        private volatile @Nullable StopNode next;
        private volatile int state = REGISTERED;

        Node(Token host, Runnable action) {
            this.host = host;
            this.action = action;
        }

        @Override
        public StopNode.Host host() {
            return host;
        }

        @Override
        public int nodeWord() {
            return state;
        }

        @Override
        public boolean casNodeWord(int expect, int update) {
            return NODE_STATE.compareAndSet(this, expect, update);
        }

        @Override
        public @Nullable StopNode nextNode() {
            return next;
        }

        @Override
        public void nextNode(@Nullable StopNode n) {
            NODE_NEXT.setRelease(this, n); // published by the push's CAS: see StopNode#nextNode(StopNode)
        }

        @Override
        public @Nullable Runnable takeCallback() {
            Runnable a = action;
            action = null;
            return a;
        }
    }

    /**
     * What {@code head} holds once stop was requested: the stopping thread (a node is RUNNING only
     * on it) and the closers waiting for a running callback (any number: close is idempotent).
     */
    static final class Stopped implements StopNode {
        final Thread runner;
        volatile @Nullable Waiter waiters;

        Stopped(Thread runner) {
            this.runner = runner;
        }

        /**
         * Parks until {@code node} is DONE. Closers push themselves on {@code waiters} before reading
         * the node's state; the stopper writes DONE before taking the stack: with both volatile,
         * either the closer sees DONE or the stopper sees (and unparks) the closer, so no wake-up
         * is lost, however many threads close at once. A waiter woken for another node (callbacks
         * run one after the other) pushes itself again.
         */
        void awaitDone(StopNode node) {
            Thread me = Thread.currentThread();
            boolean interrupted = false;
            while ((node.nodeWord() & MASK) == RUNNING) {
                Waiter w = new Waiter(me);
                do {
                    w.next = waiters;
                } while (!WAITERS.compareAndSet(this, w.next, w));
                while ((node.nodeWord() & MASK) == RUNNING && !w.woken) {
                    LockSupport.park(this);
                    if (Thread.interrupted()) {
                        interrupted = true;
                    }
                }
            }
            if (interrupted) {
                me.interrupt();
            }
        }

        /** Called by the stopper after each callback it ran: every waiter re-checks its node. */
        void wakeWaiters() {
            if (waiters == null) {
                return;
            }
            for (Waiter w = (Waiter) WAITERS.getAndSet(this, null); w != null; w = w.next) {
                w.woken = true;
                LockSupport.unpark(w.thread);
            }
        }

        // never a list member: these are never called
        @Override
        public int nodeWord() {
            return DONE;
        }

        @Override
        public boolean casNodeWord(int expect, int update) {
            return false;
        }

        @Override
        public @Nullable StopNode nextNode() {
            return null;
        }

        @Override
        public void nextNode(@Nullable StopNode next) {
            throw new IllegalStateException();
        }

        @Override
        public void onStopRequested() {
            throw new IllegalStateException();
        }
    }

    /** A closer parked until a running callback is done. */
    static final class Waiter {
        final Thread thread;
        @Nullable Waiter next;
        volatile boolean woken;

        Waiter(Thread thread) {
            this.thread = thread;
        }
    }

    /** The token: a view of the source, and the {@link StopNode.Host} that links nodes into it. */
    static final class Token extends StopNode.Host {
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
        public boolean link(StopNode node) {
            return source.link(node);
        }

        @Override
        public void unlink(StopNode node) {
            source.unlink(node);
        }

        @Override
        public void cancelled(StopNode node) {
            source.cancelled(node);
        }

        @Override
        public void forEachRegistered(Consumer<? super StopNode> action) {
            source.forEachRegistered(action);
        }

        @Override
        public String toString() {
            return "StopToken[" + (stopRequested() ? "stop requested" : "no stop requested") + "]";
        }
    }

    private static final VarHandle HEAD = VarHandles.field(MethodHandles.lookup(), InplaceStopSource.class, "head", StopNode.class);
    private static final VarHandle CANCELLED = VarHandles.field(MethodHandles.lookup(), InplaceStopSource.class, "cancelled", int.class);
    private static final VarHandle SWEEPING = VarHandles.field(MethodHandles.lookup(), InplaceStopSource.class, "sweeping", int.class);
    private static final VarHandle NODE_STATE = VarHandles.field(MethodHandles.lookup(), Node.class, "state", int.class);
    private static final VarHandle NODE_NEXT = VarHandles.field(MethodHandles.lookup(), Node.class, "next", StopNode.class);
    private static final VarHandle WAITERS = VarHandles.field(MethodHandles.lookup(), Stopped.class, "waiters", Waiter.class);
}
