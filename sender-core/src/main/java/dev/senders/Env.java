package dev.senders;

import org.jspecify.annotations.Nullable;
import java.util.Objects;
import java.util.Optional;

/**
 * A receiver's environment: an immutable map from {@link Query} keys to values (P2300R3
 * {@code get_env} and the queries of [exec.queries]).
 *
 * <p>Envs are persistent: {@link #with(Query, Object)} returns a new env that binds one more key
 * and forwards every other lookup to this one, so an adaptor that changes one query (say, the
 * stop token) forwards everything else its downstream receiver offers.
 */
public interface Env {

    /**
     * The value bound to {@code query}, or the query's default value when none is bound.
     *
     * @param <V> the value type
     * @param query the key
     * @return the bound value, or {@code query}'s default
     */
    <V> @Nullable V get(Query<V> query);

    /**
     * The stop token; never {@code null}: {@link StopToken#never()} when no stop is possible.
     *
     * @return the stop token, never {@code null}
     */
    default StopToken stopToken() {
        StopToken token = get(Query.STOP_TOKEN);
        return token == null ? StopToken.never() : token;
    }

    /**
     * The scheduler the receiver wants to be completed on, if it has one.
     *
     * @return the scheduler, or {@code Optional.empty()} if the env has none
     */
    default Optional<Scheduler> scheduler() {
        return Optional.ofNullable(get(Query.SCHEDULER));
    }

    /**
     * A new env that binds {@code query} to {@code value} and otherwise looks things up here.
     *
     * @param <V> the value type
     * @param query the key to bind
     * @param value the value to bind (may be {@code null})
     * @return a new env with the binding
     */
    default <V> Env with(Query<V> query, @Nullable V value) {
        return new Envs.Binding(this, Objects.requireNonNull(query, "query"), value);
    }

    /**
     * The empty env: every query yields its default.
     *
     * @return the empty env
     */
    static Env empty() {
        return Envs.EMPTY;
    }

    /**
     * An env that binds one query.
     *
     * @param <V> the value type
     * @param query the key to bind
     * @param value the value to bind (may be {@code null})
     * @return a new env with that one binding
     */
    static <V> Env of(Query<V> query, @Nullable V value) {
        return empty().with(query, value);
    }
}
