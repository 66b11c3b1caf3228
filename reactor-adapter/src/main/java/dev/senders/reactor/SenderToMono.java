package dev.senders.reactor;

import dev.senders.Sender;
import java.util.Objects;
import reactor.core.CoreSubscriber;
import reactor.core.Scannable;
import reactor.core.publisher.Mono;
import org.jspecify.annotations.Nullable;

/**
 * {@link ReactorSenders#toMono} (and {@link ReactorSenders#toFlux}, as {@code Flux.from} of it): a
 * cold {@code Mono} that connects and starts the sender once per subscriber. The per-subscription protocol (demand, cancel, stopped,
 * context) is {@link SenderToReactorSubscription}'s.
 */
final class SenderToMono<T> extends Mono<T> implements Scannable {

    private final Sender<? extends T> sender;

    private SenderToMono(Sender<? extends T> sender) {
        this.sender = sender;
    }

    /** Through Reactor's assembly hooks ({@code Hooks.onEachOperator}, debug mode), as Reactor's own operators. */
    static <T> Mono<T> adapt(Sender<? extends T> sender) {
        return onAssembly(new SenderToMono<T>(sender));
    }

    @Override
    public void subscribe(CoreSubscriber<? super T> actual) {
        new SenderToReactorSubscription<T>(Objects.requireNonNull(actual, "actual")).connectAndStart(sender); // RS §1.9
    }

    /**
     * {@code PARENT}: the publisher of a {@code fromPublisher}-style sender (else none: a sender is
     * not {@link Scannable}); {@code PREFETCH}: one element at most; {@code RUN_STYLE}: {@code ASYNC}
     * (the sender may complete on any thread).
     */
    @Override
    @SuppressWarnings("rawtypes") // Scannable declares the raw Attr
    public @Nullable Object scanUnsafe(Attr key) {
        if (key == Attr.PARENT) {
            return sender instanceof PublisherToSender ? ((PublisherToSender<?, ?>) sender).source() : null;
        }
        if (key == Attr.PREFETCH) {
            return 1;
        }
        return key == Attr.RUN_STYLE ? Attr.RunStyle.ASYNC : null;
    }

    @Override
    public String stepName() {
        return "toMono";
    }
}
