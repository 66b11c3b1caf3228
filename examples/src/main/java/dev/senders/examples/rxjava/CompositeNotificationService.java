package dev.senders.examples.rxjava;

import io.reactivex.rxjava3.core.Completable;
import io.reactivex.rxjava3.core.Scheduler;
import io.reactivex.rxjava3.disposables.CompositeDisposable;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * <b>Before:</b> the RxJava habit. Each delivery is subscribed into a {@link CompositeDisposable}
 * ({@code subscribe(onComplete, onError, container)} removes it again when it ends), and
 * {@link #shutdown} disposes the composite. A {@code CompositeDisposable} can only cancel: it does
 * not know how to wait, so every delivery still running at shutdown is lost.
 */
public final class CompositeNotificationService implements NotificationService {

    private final Mailer mailer;
    private final Scheduler io;
    private final Consumer<Throwable> onError;
    private final CompositeDisposable disposables = new CompositeDisposable();

    public CompositeNotificationService(Mailer mailer, Scheduler io, Consumer<Throwable> onError) {
        this.mailer = Objects.requireNonNull(mailer, "mailer");
        this.io = Objects.requireNonNull(io, "io");
        this.onError = Objects.requireNonNull(onError, "onError");
    }

    @Override
    public void send(String to, String text) {
        Completable.fromAction(() -> mailer.deliver(to, text))
                .subscribeOn(io)
                .subscribe(() -> { }, onError::accept, disposables);
    }

    /** Disposes everything still running; the timeout is of no use: there is nothing to wait on. */
    @Override
    public boolean shutdown(Duration timeout) {
        boolean idle = disposables.size() == 0;
        disposables.dispose();
        return idle;
    }
}
