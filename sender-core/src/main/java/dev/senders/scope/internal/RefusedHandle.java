package dev.senders.scope.internal;

/**
 * What the adapters' {@code spawn} returns when the scope refused the work: the shared part of
 * {@code ReactorScopes.REFUSED} and {@code RxScopes.REFUSED}. It is always disposed and its
 * {@code dispose()} does nothing (there is no work to stop). Each adapter subclasses it once, adding
 * its library's {@code Disposable} interface, whose two methods these are; the one instance is
 * compared by identity. Safe to use from any thread. Not public API: may change without notice.
 */
public abstract class RefusedHandle {

    private final String name;

    /** @param name what {@link #toString()} returns: the constant's name, e.g. {@code "RxScopes.REFUSED"} */
    protected RefusedHandle(String name) {
        this.name = name;
    }

    /** Does nothing: refused work was never started. */
    public final void dispose() {}

    /**
     * Always {@code true}.
     *
     * @return {@code true}
     */
    public final boolean isDisposed() {
        return true;
    }

    @Override
    public final String toString() {
        return name;
    }
}
