package dev.senders.scope;

import java.lang.ref.WeakReference;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * One {@link java.lang.ref.Cleaner} registration for a batch of up to {@link #SIZE} members created
 * by one thread: the leak check of {@code nest} senders ({@link NestBatch}) and of unconsumed
 * {@code spawnFuture} futures ({@link SpawnFuture.Batch}). A registration per member would cost far
 * more than the rest of {@code nest} or {@code spawnFuture}.
 *
 * <p>Contract: every member holds its batch strongly until it no longer needs the check; nothing
 * else does (the per-thread {@link Cache} holds batches weakly). The Cleaner action, given to the
 * constructor, must not reference the batch: it runs once every member is unreachable (or has let
 * the batch go), and then releases what the members left behind. Consequence: a dropped member is
 * noticed once its whole batch is unreachable, which a long-lived batch-mate can delay.
 */
abstract class LeakBatch {

    /** How many members one batch takes. */
    static final int SIZE = 1024;

    private final @Nullable Object key;
    /** How many members joined; read and written only by the thread that created the batch. */
    private int size;

    LeakBatch(@Nullable Object key, Runnable cleanerAction) {
        this.key = key;
        ScopeCore.CLEANER.register(this, cleanerAction);
    }

    /** How many members joined, the last one included: the last one's slot is {@code size() - 1}. */
    final int size() {
        return size;
    }

    /**
     * Each thread's current batches, held weakly, for up to {@link #WAYS} keys at once (the least
     * recently created one is replaced); keys are compared by identity, {@code null} being a key
     * like any other.
     *
     * @param <B> the batch type
     */
    static final class Cache<B extends LeakBatch> {
        /** How many keys each thread keeps a current batch for. */
        static final int WAYS = 4;

        private final ThreadLocal<Slots> slots = ThreadLocal.withInitial(Slots::new);
        private final Function<Object, B> create;

        /** @param create makes a new batch for a key (the constructor registers it with the Cleaner) */
        Cache(Function<Object, B> create) {
            this.create = create;
        }

        private static final class Slots {
            @SuppressWarnings("unchecked")
            final WeakReference<LeakBatch>[] refs = (WeakReference<LeakBatch>[]) new WeakReference<?>[WAYS];
            int next;
        }

        /**
         * The batch a new member for {@code key} joins on this thread, the member counted: a fresh
         * one when there is none for the key or it is full.
         */
        @SuppressWarnings("unchecked")
        B join(@Nullable Object key) {
            Slots c = slots.get();
            WeakReference<LeakBatch>[] refs = c.refs;
            for (int i = 0; i < WAYS; i++) {
                WeakReference<LeakBatch> ref = refs[i];
                LeakBatch b;
                if (ref != null && (b = ref.get()) != null && b.key == key) {
                    if (b.size < SIZE) {
                        b.size++;
                        return (B) b;
                    }
                    return replace(c, i, key); // full: a fresh batch in the same slot
                }
            }
            int i = c.next;
            c.next = (i + 1) % WAYS;
            return replace(c, i, key);
        }

        private B replace(Slots c, int slot, @Nullable Object key) {
            B b = create.apply(key);
            ((LeakBatch) b).size = 1;
            c.refs[slot] = new WeakReference<>(b);
            return b;
        }
    }
}
