package dev.senders;

import org.jspecify.annotations.Nullable;
import java.util.Objects;

/**
 * A typed key for an {@link Env} lookup ({@code get_env} queries in P2300R3 [exec.queries]).
 *
 * <p>Queries compare by identity: create each one once, as a constant. A query has a default
 * value that {@link Env#get(Query)} returns when no env in the chain binds it.
 *
 * @param <V> the type of the value the query yields
 */
public final class Query<V> {

    /** The stop token of the receiver; defaults to {@link StopToken#never()}. */
    public static final Query<StopToken> STOP_TOKEN = of("stopToken", StopToken.never());

    /** The scheduler on which the receiver wants to be completed, if any; defaults to {@code null}. */
    public static final Query<Scheduler> SCHEDULER = of("scheduler", null);

    private final String name;
    private final @Nullable V defaultValue;

    private Query(String name, @Nullable V defaultValue) {
        this.name = name;
        this.defaultValue = defaultValue;
    }

    /**
     * A new query with the given name (for diagnostics) and default value (may be {@code null}).
     *
     * @param <V> the value type
     * @param name the name, for diagnostics
     * @param defaultValue the value an env without a binding yields (may be {@code null})
     * @return a new query
     */
    public static <V> Query<V> of(String name, @Nullable V defaultValue) {
        return new Query<>(Objects.requireNonNull(name, "name"), defaultValue);
    }

    /**
     * A new query whose default is {@code null}.
     *
     * @param <V> the value type
     * @param name the name, for diagnostics
     * @return a new query
     */
    public static <V> Query<V> named(String name) {
        return of(name, null);
    }

    /**
     * The name given at creation, for diagnostics.
     *
     * @return the name
     */
    public String name() {
        return name;
    }

    /**
     * The value an env without a binding for this query yields.
     *
     * @return the default value (may be {@code null})
     */
    public @Nullable V defaultValue() {
        return defaultValue;
    }

    @Override
    public String toString() {
        return "Query[" + name + "]";
    }
}
