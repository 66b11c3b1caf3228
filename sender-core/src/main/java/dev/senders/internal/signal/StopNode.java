package dev.senders.internal.signal;

import dev.senders.StopToken;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * A stop-callback registration that is part of the object that wants the callback (P2300's
 * {@code inplace_stop_callback}, whose storage is the operation state itself): an
 * {@link dev.senders.InplaceStopSource} links such an object into its list as is, so registering
 * allocates nothing. Implemented by the source's own registration node and by the library's
 * per-operation objects that register one callback each (the spawn receiver of a stoppable scope,
 * the Reactor and RxJava adapters' spawned work). Not public API: may change without notice.
 *
 * <h2>The word</h2>
 * An implementor keeps one {@code int} word, read by {@link #nodeWord()} and changed only by
 * {@link #casNodeWord}. Bits 0..2 are the registration state, owned by the source's protocol:
 * <pre>
 *   FREE        0   not registered (yet)
 *   REGISTERED  1   linked (or being linked) into a source; the callback may still run
 *   RUNNING     2   the stopper claimed it and runs {@link #onStopRequested()}
 *   DONE        3   the callback ran (or ran inline because stop had been requested)
 *   CANCELLED   4   deregistered before it ran; the callback will never run
 * </pre>
 * {@code FREE -> REGISTERED} is made by the registrant before {@link Host#link} (with a plain
 * write while no other thread can see the object, else a CAS); {@code REGISTERED -> CANCELLED} by
 * {@link Host#unlink}, or by the owner's own CAS followed by {@link Host#cancelled}; every other
 * transition by the {@link Host}. The other bits (3..31) are the implementor's own: sharing one word
 * lets an operation claim its completion and deregister its callback with one CAS. Every CAS of the
 * protocol preserves them, and the implementor's CASes must preserve bits 0..2.
 *
 * <p>{@link #nextNode} is the list link, written by the source only (before the node is published,
 * and by its sweeper afterwards); an implementor declares it {@code volatile} and never touches it.
 * The write is a release store, not a volatile one: the push's CAS on the source's head publishes
 * the link it wrote before (a CAS is a full fence), a walker reads with a volatile read and
 * tolerates a link the sweeper is rewriting, and the link cleared after a pop is never read again.
 * A volatile store would add a full fence per registration and per pop, the dearest instructions
 * of a spawn, ordering nothing that needs it.
 */
public interface StopNode {

    int FREE = 0, REGISTERED = 1, RUNNING = 2, DONE = 3, CANCELLED = 4;
    /** The registration-state bits of the word. */
    int MASK = 7;

    /** The word (a volatile read). */
    int nodeWord();

    /** CAS of the word (volatile semantics). */
    boolean casNodeWord(int expect, int update);

    /** The list link (a volatile read). */
    @Nullable StopNode nextNode();

    /** Sets the list link (a release write; see the interface notes). */
    void nextNode(@Nullable StopNode next);

    /** The callback; runs on the stopping thread (or inline in {@link Host#link}); exceptions are reported. */
    void onStopRequested();

    /**
     * Moves the registration bits from {@code from} to {@code to}, preserving the others;
     * {@code false} if they were not {@code from}.
     */
    static boolean transition(StopNode node, int from, int to) {
        for (;;) {
            int w = node.nodeWord();
            if ((w & MASK) != from) {
                return false;
            }
            if (node.casNodeWord(w, (w & ~MASK) | to)) {
                return true;
            }
        }
    }

    /**
     * A stop token that can link {@code StopNode}s: {@link dev.senders.InplaceStopSource}'s. Its
     * two methods are those of {@link StopToken#onStop} and {@code StopCallback.close()}, for a
     * callback that is its own registration. A class, not an interface: {@code instanceof Host}
     * is tested on every spawn, and a failed {@code instanceof} of an interface scans the
     * object's class's interfaces each time.
     */
    abstract class Host implements StopToken {

        /**
         * Registers {@code node}, whose registration bits must be {@code REGISTERED}. Returns
         * {@code true} if it is linked (its callback runs on the thread that requests stop, unless
         * {@link #unlink} comes first); {@code false} if stop was already requested: then the
         * callback ran inline, on this thread, and the node is {@code DONE}.
         */
        public abstract boolean link(StopNode node);

        /**
         * Deregisters {@code node} ({@code REGISTERED -> CANCELLED}). If its callback is running on
         * another thread, waits until it returned; from inside the callback itself, returns at once.
         * Does nothing for a node that is {@code FREE}, {@code DONE} or {@code CANCELLED}.
         * Idempotent.
         */
        public abstract void unlink(StopNode node);

        /**
         * Tells the source that {@code node}'s owner moved it {@code REGISTERED -> CANCELLED} with
         * its own CAS (one that also changed its own bits: claiming its completion, say), so that
         * the source unlinks or counts it. Call exactly once per such CAS, and never after
         * {@link #unlink} (which does it itself).
         */
        public abstract void cancelled(StopNode node);

        /**
         * Passes each node linked into this source and still {@code REGISTERED} to {@code action},
         * on the calling thread, from the newest; nothing once stop was requested. A snapshot
         * taken while nodes come and go: a node linked or deregistered during the walk may or may
         * not be passed, and no node is passed twice. Takes no lock; for listings, not
         * for hot paths (it walks the whole list).
         *
         * @param action what to do with each node
         */
        public abstract void forEachRegistered(Consumer<? super StopNode> action);
    }
}
