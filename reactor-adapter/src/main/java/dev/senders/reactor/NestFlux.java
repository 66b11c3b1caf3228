package dev.senders.reactor;

import dev.senders.scope.AsyncScopeToken;
import java.util.Objects;
import org.reactivestreams.Publisher;
import reactor.core.CoreSubscriber;
import reactor.core.Scannable;
import reactor.core.publisher.Flux;
import org.jspecify.annotations.Nullable;

/**
 * {@link ReactorScopes#nest}: a cold {@code Flux} whose every subscription is associated with a
 * scope. The per-subscription protocol is {@link NestSubscription}'s.
 */
final class NestFlux<T> extends Flux<T> implements Scannable {

    private final Publisher<? extends T> source;
    private final AsyncScopeToken token;

    private NestFlux(Publisher<? extends T> source, AsyncScopeToken token) {
        this.source = source;
        this.token = token;
    }

    /** Through Reactor's assembly hooks ({@code Hooks.onEachOperator}, debug mode), as Reactor's own operators. */
    static <T> Flux<T> adapt(Publisher<? extends T> source, AsyncScopeToken token) {
        return onAssembly(new NestFlux<T>(source, token));
    }

    @Override
    public void subscribe(CoreSubscriber<? super T> actual) {
        NestSubscription.subscribe(source, token, Objects.requireNonNull(actual, "actual")); // RS §1.9
    }

    @Override
    @SuppressWarnings("rawtypes") // Scannable declares the raw Attr
    public @Nullable Object scanUnsafe(Attr key) {
        return OperatorScan.syncOperator(key, source);
    }

    @Override
    public String stepName() {
        return "nest";
    }
}
