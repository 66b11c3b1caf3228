package dev.senders;

/**
 * Observes whether stop was requested, and lets code register a callback for it (P2300R3
 * [thread.stoptoken], the {@code stoppable_token} concept).
 *
 * <p>Rules the library relies on: a callback registered on a token whose stop was already
 * requested runs inline, on the registering thread, before {@code onStop} returns; otherwise it
 * runs at most once, on the thread that requests stop. A callback that throws does not prevent the
 * others from running: its exception goes to {@link Hooks#onErrorDropped(Throwable)}.
 */
public interface StopToken {

    /**
     * Whether stop has been requested.
     *
     * @return {@code true} once stop has been requested
     */
    boolean stopRequested();

    /**
     * Whether stop can ever be requested; {@code false} lets senders skip registering callbacks.
     *
     * @return {@code false} if stop can never be requested on this token
     */
    boolean stopPossible();

    /**
     * Registers {@code callback} to run when stop is requested. Close the returned registration
     * (before completing the receiver that owns it) to deregister.
     *
     * @param callback runs once when stop is requested (at once, on this thread, if it already was)
     * @return the registration; close it to deregister
     * @throws NullPointerException if {@code callback} is null
     */
    StopCallback onStop(Runnable callback);

    /**
     * The unstoppable token ({@code never_stop_token}): stop is never possible.
     *
     * @return the token on which stop is never possible
     */
    static StopToken never() {
        return NeverStopToken.INSTANCE;
    }
}
