package dev.senders.testkit;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * What a test {@code Disposable} does, whatever the library's {@code Disposable} type: counts its
 * disposals and throws the given failure (checked or not, as is) from each. The adapters' tests wrap
 * it in their library's type. Test support, not published API.
 */
public final class DisposeProbe {

    private final AtomicInteger disposals = new AtomicInteger();
    private final Throwable failure;

    public DisposeProbe() {
        this(null);
    }

    public DisposeProbe(Throwable failure) {
        this.failure = failure;
    }

    /** Counts one disposal, then throws the failure, if any, undeclared. */
    public void dispose() {
        disposals.incrementAndGet();
        if (failure != null) {
            throw DisposeProbe.<RuntimeException>sneaky(failure);
        }
    }

    public int disposals() {
        return disposals.get();
    }

    public boolean isDisposed() {
        return disposals.get() > 0;
    }

    @SuppressWarnings("unchecked")
    private static <E extends Throwable> E sneaky(Throwable t) throws E {
        throw (E) t;
    }
}
