package dev.senders.scope;

import dev.senders.internal.VarHandles;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Releases the associations of nest senders (and of their operations) that were dropped without
 * completing, for a batch of up to {@link LeakBatch#SIZE} of them (one Cleaner registration per
 * batch: {@link LeakBatch}).
 *
 * <p>Every {@link NestSender} of the batch, and every operation connected from one, holds the
 * batch strongly. The batch's {@link Counter} (the Cleaner action, which must not reference the
 * batch) counts the associations made through it and not yet released, without atomics on the
 * thread that created the batch. A completed operation or a {@code discard()} decrements it before
 * dissociating; when the batch becomes unreachable, nothing can release anything any more, so the
 * Cleaner dissociates whatever is still counted.
 *
 * <p><b>Which batch.</b> Each thread keeps its current batch for up to
 * {@link LeakBatch.Cache#WAYS} tokens, found by the token's identity. This works the same for every
 * {@link AsyncScopeToken}, the library's and any other (a token forwarding to a scope's gets its
 * own batches, as cheap), with no test of the token's class; and since a batch is used by the
 * thread that created it, its counter's owner-thread path (no atomics) is the common one.
 *
 * <p>Consequence (documented on {@link NestSender}): a dropped nest sender's association is
 * released once every sender and operation of its batch is unreachable, not necessarily as soon as
 * it itself is.
 */
final class NestBatch extends LeakBatch {

    private static final LeakBatch.Cache<NestBatch> CACHE =
            new LeakBatch.Cache<>(token -> new NestBatch(new Counter((AsyncScopeToken) token)));

    final Counter counter;

    private NestBatch(Counter counter) {
        super(counter.token, counter);
        this.counter = counter;
    }

    /** The batch a new nest sender of {@code token} joins on this thread. */
    static NestBatch forToken(AsyncScopeToken token) {
        return CACHE.join(token);
    }

    /**
     * The accounting, and the Cleaner action (it must not reference the batch). Three counters so
     * that the thread that created the batch (usually the one nesting, connecting and completing
     * inline) needs no atomic instruction: {@code created} and {@code releasedByOwner} are written
     * by that thread only (release stores), {@code net} by every other thread (atomic adds:
     * -1 per association, +1 per release). Unreleased = created - releasedByOwner - net.
     */
    static final class Counter implements Runnable {
        private final AsyncScopeToken token;
        private final Thread owner;
        private long created;
        private long releasedByOwner;
        private volatile long net;

        Counter(AsyncScopeToken token) {
            this.token = token;
            this.owner = Thread.currentThread();
        }

        /** One more association is owned by a member of the batch. */
        void add() {
            if (Thread.currentThread() == owner) {
                CREATED.setRelease(this, created + 1);
            } else {
                PENDING.getAndAdd(this, -1L);
            }
        }

        /** A member releases its association (the caller keeps the batch reachable meanwhile). */
        void release() {
            if (Thread.currentThread() == owner) {
                RELEASED.setRelease(this, releasedByOwner + 1);
            } else {
                PENDING.getAndAdd(this, 1L);
            }
            token.dissociate();
        }

        /** Cleaner: the batch is unreachable; release what its members never did. */
        @Override
        public void run() {
            long n = (long) CREATED.getAcquire(this) - (long) RELEASED.getAcquire(this) - net;
            created = 0;
            releasedByOwner = 0;
            net = 0;
            for (; n > 0; n--) {
                token.dissociate();
            }
        }
    }

    private static final VarHandle PENDING = VarHandles.field(MethodHandles.lookup(), Counter.class, "net", long.class);
    private static final VarHandle CREATED = VarHandles.field(MethodHandles.lookup(), Counter.class, "created", long.class);
    private static final VarHandle RELEASED = VarHandles.field(MethodHandles.lookup(), Counter.class, "releasedByOwner", long.class);
}
