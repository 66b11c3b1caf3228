package dev.senders.bench;

import java.util.concurrent.CountDownLatch;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;
import reactor.core.Disposable;
import reactor.core.Disposables;

/**
 * Reactor's best way to keep fire-and-forget work tracked: a subscriber that is held in a
 * {@code Disposables.composite()} from {@code onSubscribe} until it terminates (so disposing the
 * composite cancels everything still running). One allocation per subscription (24 bytes), which
 * is cheaper than {@code subscribe(lambda...)} + {@code composite.add(disposable)}.
 * {@link #terminated} is told the end, before the latch (a subclass's hand-written observation).
 */
class HeldSubscriber implements CoreSubscriber<Object>, Disposable {

    /** The tracker shared by all subscribers of one benchmark invocation. */
    static final class Tracker {
        final Disposable.Composite composite = Disposables.composite();
        final CountDownLatch latch;
        volatile Throwable error;

        Tracker(CountDownLatch latch) {
            this.latch = latch;
        }
    }

    private final Tracker tracker;
    private volatile Subscription s;

    HeldSubscriber(Tracker tracker) {
        this.tracker = tracker;
    }

    @Override
    public void onSubscribe(Subscription s) {
        this.s = s;
        if (tracker.composite.add(this)) {
            s.request(Long.MAX_VALUE);
        }
    }

    @Override
    public void onNext(Object o) {
    }

    @Override
    public void onError(Throwable t) {
        tracker.error = t;
        terminate(t);
    }

    @Override
    public void onComplete() {
        terminate(null);
    }

    /** The subscription ended, with {@code error} or completed ({@code null}); nothing by default. */
    void terminated(Throwable error) {
    }

    private void terminate(Throwable error) {
        tracker.composite.remove(this);
        terminated(error);
        CountDownLatch latch = tracker.latch;
        if (latch != null) {
            latch.countDown();
        }
    }

    @Override
    public void dispose() {
        Subscription sub = s;
        if (sub != null) {
            sub.cancel();
        }
    }
}
