package dev.senders.reactor;

import dev.senders.Sender;
import java.util.Objects;
import reactor.core.CoreSubscriber;
import reactor.core.Scannable;
import reactor.core.publisher.Flux;

/**
 * {@link ReactorSenders#toFlux}: a cold {@code Flux} of zero or one element that connects and
 * starts the sender once per subscriber. The per-subscription protocol (demand, cancel, stopped,
 * context) is {@link SenderSubscription}'s.
 */
final class SenderFlux<T> extends Flux<T> implements Scannable {

    private final Sender<? extends T> sender;

    private SenderFlux(Sender<? extends T> sender) {
        this.sender = sender;
    }

    /** Through Reactor's assembly hooks ({@code Hooks.onEachOperator}, debug mode), as Reactor's own operators. */
    static <T> Flux<T> adapt(Sender<? extends T> sender) {
        return onAssembly(new SenderFlux<T>(sender));
    }

    @Override
    public void subscribe(CoreSubscriber<? super T> actual) {
        SenderSubscription.subscribe(sender, Objects.requireNonNull(actual, "actual")); // RS §1.9
    }

    @Override
    @SuppressWarnings("rawtypes") // Scannable declares the raw Attr
    public Object scanUnsafe(Attr key) {
        return key == Attr.RUN_STYLE ? Attr.RunStyle.ASYNC : null;
    }

    @Override
    public String stepName() {
        return "toFlux";
    }
}
