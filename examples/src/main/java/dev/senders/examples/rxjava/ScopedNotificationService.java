package dev.senders.examples.rxjava;

import dev.senders.Senders;
import dev.senders.rxjava3.RxScopes;
import dev.senders.rxjava3.ScopeContainer;
import dev.senders.scope.CountingScope;
import io.reactivex.rxjava3.core.Completable;
import io.reactivex.rxjava3.core.Scheduler;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * <b>After:</b> the same service on a scope. The diff is two lines: the
 * {@code CompositeDisposable} field becomes {@code RxScopes.asContainer(scope)}, and
 * {@link #shutdown} closes, joins (with a timeout), and only then disposes (stops) what is left.
 * {@link #send} is unchanged: {@code subscribe(onComplete, onError, container)} adds the delivery
 * to the container (associating it with the scope) and deletes it when it ends (releasing it).
 *
 * <p>After shutdown the container refuses new deliveries: {@code add} disposes them before they
 * run, as a disposed {@code CompositeDisposable} does.
 */
public final class ScopedNotificationService implements NotificationService {

    private final Mailer mailer;
    private final Scheduler io;
    private final Consumer<Throwable> onError;
    private final CountingScope scope;
    private final ScopeContainer disposables;                    // was: new CompositeDisposable()

    public ScopedNotificationService(Mailer mailer, Scheduler io, Consumer<Throwable> onError) {
        this.mailer = Objects.requireNonNull(mailer, "mailer");
        this.io = Objects.requireNonNull(io, "io");
        this.onError = Objects.requireNonNull(onError, "onError");
        this.scope = new CountingScope(onError::accept);
        this.disposables = RxScopes.asContainer(scope);
    }

    @Override
    public void send(String to, String text) {                  // unchanged
        Completable.fromAction(() -> mailer.deliver(to, text))
                .subscribeOn(io)
                .subscribe(() -> { }, onError::accept, disposables);
    }

    /**
     * Closes the scope (no new deliveries), waits up to {@code timeout} for the running ones, then
     * disposes what is left (close + request stop) and waits until it has let go of the scope.
     */
    @Override
    public boolean shutdown(Duration timeout) throws InterruptedException {
        scope.close();
        CompletableFuture<Void> joined = Senders.toCompletableFuture(disposables.join());
        try {
            joined.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            return true;
        } catch (TimeoutException e) {
            disposables.dispose();                               // the CompositeDisposable habit, last
            try {
                joined.get(10, TimeUnit.SECONDS);                // disposing releases at once
            } catch (ExecutionException | TimeoutException stuck) {
                throw new IllegalStateException("scope not joined after stop", stuck);
            }
            return false;
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        }
    }

    /** The scope, for callers that want its state or count. */
    public CountingScope scope() {
        return scope;
    }
}
