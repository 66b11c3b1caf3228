package dev.senders.scope;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Releases the associations of nest senders (and of their operations) that were dropped without
 * completing, for a batch of up to {@link #SIZE} of them: one {@link java.lang.ref.Cleaner}
 * registration per batch instead of one per {@code nest}, which would cost a hundred times the
 * CAS that {@code nest} is otherwise made of.
 *
 * <p>Every {@link NestSender} of the batch, and every operation connected from one, holds the
 * batch strongly; the scope holds the current batch only weakly. The batch's {@link Counter} (the
 * Cleaner action, which must not reference the batch) counts the associations made through it and
 * not yet released. A completed operation or a {@code discard()} decrements it before
 * dissociating; when the batch becomes unreachable, nothing can release anything any more, so the
 * Cleaner dissociates whatever is still counted.
 *
 * <p>Consequence (documented on {@link NestSender}): a dropped nest sender's association is
 * released once every sender and operation of its batch is unreachable, not necessarily as soon as
 * it itself is.
 */
final class NestBatch {

    static final int SIZE = 1024;

    final Counter counter;
    /** How many senders took this batch; racy on purpose (only decides when to start a new batch). */
    int uses;

    private NestBatch(AsyncScopeToken token) {
        this.counter = new Counter(token);
    }

    static NestBatch create(AsyncScopeToken token) {
        NestBatch b = new NestBatch(token);
        ScopeCore.CLEANER.register(b, b.counter);
        return b;
    }

    /** The batch a new nest sender of {@code token} joins. */
    static NestBatch forToken(AsyncScopeToken token) {
        if (token instanceof ScopeCore) {
            return ((ScopeCore) token).nestBatch();
        }
        return create(token);
    }

    static final class Counter implements Runnable {
        private final AsyncScopeToken token;
        private volatile long pending;

        Counter(AsyncScopeToken token) {
            this.token = token;
        }

        /** One more association is owned by a member of the batch. */
        void add() {
            PENDING.getAndAdd(this, 1L);
        }

        /** A member releases its association (the caller keeps the batch reachable meanwhile). */
        void release() {
            PENDING.getAndAdd(this, -1L);
            token.dissociate();
        }

        /** Cleaner: the batch is unreachable; release what its members never did. */
        @Override
        public void run() {
            for (long n = (long) PENDING.getAndSet(this, 0L); n > 0; n--) {
                token.dissociate();
            }
        }
    }

    private static final VarHandle PENDING;

    static {
        try {
            PENDING = MethodHandles.lookup().findVarHandle(Counter.class, "pending", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
