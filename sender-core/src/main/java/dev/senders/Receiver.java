package dev.senders;

import org.jspecify.annotations.Nullable;

/**
 * The consumer of a sender's completion (P2300R3 [exec.recv]).
 *
 * <p>After the {@link OperationState} it was connected through is {@linkplain OperationState#start()
 * started}, a receiver gets exactly one of the three completion signals, on whatever thread the
 * sender completes on. Nothing is delivered before {@code start}.
 *
 * <p><b>Throwing.</b> As in P2300, {@code setValue} may throw: a receiver that throws from
 * {@code setValue} has <em>not</em> accepted the value, and the library senders that call it then
 * deliver the exception through {@code setError} instead. {@code setError} and {@code setStopped}
 * must not throw (they are {@code noexcept} in C++); an exception escaping them is passed to
 * {@link Hooks#onErrorDropped(Throwable)}, never silently swallowed and never re-signalled.
 *
 * @param <T> the value type; {@code Void} senders deliver {@code null}
 */
public interface Receiver<T> {

    /**
     * The value channel ({@code set_value}). {@code null} is a legal value.
     *
     * @param value the value (may be {@code null})
     */
    void setValue(@Nullable T value);

    /**
     * The error channel ({@code set_error}); {@code error} is never {@code null}.
     *
     * @param error the error, never {@code null}
     */
    void setError(Throwable error);

    /** The stopped channel ({@code set_stopped}; P2300R3 calls it {@code set_done}). */
    void setStopped();

    /**
     * The receiver's environment ({@code get_env}): its stop token, scheduler and user-defined
     * queries. Adaptors forward their downstream receiver's env to the senders they connect.
     *
     * @return the environment; by default the empty env
     */
    default Env env() {
        return Env.empty();
    }
}
