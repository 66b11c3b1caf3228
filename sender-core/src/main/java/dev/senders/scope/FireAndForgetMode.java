package dev.senders.scope;

/**
 * What the fire-and-forget hooks of the adapters ({@code dev.senders.reactor.FireAndForget},
 * {@code dev.senders.rxjava3.FireAndForget}) do with a subscription made by the application's own
 * code through a lambda {@code subscribe(...)} (Reactor's {@code subscribe()} and
 * {@code subscribe(consumer, ...)}, RxJava's {@code subscribe()} and callback forms): a
 * subscription nothing owns, that a shutdown neither waits for nor stops.
 */
public enum FireAndForgetMode {
    /** Nothing is installed: subscriptions run as without the library. */
    OFF,
    /**
     * Each one found is counted while it runs and listed (subscribe site, age) by its
     * {@link FireAndForgetTracker}; its behaviour is unchanged.
     */
    REPORT,
    /**
     * Each one found becomes work associated with the given scope: the scope's join waits for it,
     * its stop cancels it, and an error nobody consumes goes to the scope's error handler. The
     * caller's {@code Disposable} keeps working. A subscription made once the scope is closed runs
     * untracked and is counted as such ({@link FireAndForgetTracker#untrackedCount()}).
     */
    TRACK
}
