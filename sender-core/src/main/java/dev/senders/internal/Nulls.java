package dev.senders.internal;

import org.jspecify.annotations.Nullable;

/**
 * Nullness facts the compiler cannot see. NullAway is told (the build's
 * {@code CastToNonNullMethod} option) that {@link #nonNull} returns a non-null value; it checks
 * nothing at run time, so a call site states why the value is set there (a field written before
 * the state word that publishes it, a slot that only its owner reads, and the like).
 */
public final class Nulls {

    private Nulls() {}

    /**
     * Returns {@code value} unchanged, typed as non-null.
     *
     * @param value a value that the caller's protocol guarantees is set
     * @param <T> the value type
     * @return {@code value}
     */
    @SuppressWarnings("NullAway") // the one unchecked cast: callers state why the value is set
    public static <T> T nonNull(@Nullable T value) {
        return value;
    }
}
