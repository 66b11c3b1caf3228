package dev.senders.reactor;

import dev.senders.Sender;
import java.util.Objects;
import reactor.core.CoreSubscriber;
import reactor.core.Scannable;
import reactor.core.publisher.Mono;

/**
 * {@link ReactorSenders#toMono}: a cold {@code Mono} that connects and starts the sender once per
 * subscriber. The per-subscription protocol (demand, cancel, stopped, context) is
 * {@link SenderSubscription}'s.
 */
final class SenderMono<T> extends Mono<T> implements Scannable {

    private final Sender<? extends T> sender;

    private SenderMono(Sender<? extends T> sender) {
        this.sender = sender;
    }

    /** Through Reactor's assembly hooks ({@code Hooks.onEachOperator}, debug mode), as Reactor's own operators. */
    static <T> Mono<T> adapt(Sender<? extends T> sender) {
        return onAssembly(new SenderMono<T>(sender));
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
        return "toMono";
    }
}
