package dev.senders.spring.boot;

import dev.senders.Hooks;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BiConsumer;

/**
 * Listeners to the errors of spawned work that {@link SpawnErrorLogger} logs, for test support
 * ({@code senders-test} fails a Spring test whose spawned work failed). Process-wide: a listener
 * sees the errors of every starter scope, with the scope's name, until its registration is
 * closed. It is called on the thread that completes the failed work, before the work is released
 * from its scope (so before a join or {@code whenIdle()} of that scope completes); it must be
 * fast and must not throw (what it throws goes to {@link Hooks#onErrorDropped}). Without a
 * listener, logging an error costs one volatile read more.
 */
public final class SpawnErrorListeners {

    private static final CopyOnWriteArrayList<BiConsumer<? super String, ? super Throwable>> LISTENERS =
            new CopyOnWriteArrayList<>();

    private SpawnErrorListeners() {}

    /** A registered listener; {@link #close()} removes it. */
    public interface Registration extends AutoCloseable {
        /** Removes the listener; idempotent. */
        @Override
        void close();
    }

    /**
     * Adds {@code listener}, which from now on receives {@code (scopeName, error)} for each error
     * a {@link SpawnErrorLogger} logs.
     *
     * @param listener the listener
     * @return its registration, to close when done
     */
    public static Registration add(BiConsumer<? super String, ? super Throwable> listener) {
        Objects.requireNonNull(listener, "listener");
        LISTENERS.add(listener);
        return () -> LISTENERS.remove(listener);
    }

    static void publish(String scopeName, Throwable error) {
        if (LISTENERS.isEmpty()) {
            return;
        }
        for (BiConsumer<? super String, ? super Throwable> l : LISTENERS) {
            try {
                l.accept(scopeName, error);
            } catch (RuntimeException | Error listenerFailure) {
                Hooks.onErrorDropped(listenerFailure);
            }
        }
    }
}
