package dev.senders.reactor;

import dev.senders.Sender;
import java.util.Objects;
import reactor.core.CoreSubscriber;
import reactor.core.Scannable;
import reactor.core.publisher.Mono;

/**
 * {@link ReactorSenders#toMono}: a cold {@code Mono} (of zero or one element) that connects and
 * starts the sender once per subscriber. The per-subscription protocol (demand, cancel, stopped,
 * context) is {@link SenderToSubscriber}'s.
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
        new SenderToSubscriber<T>(Objects.requireNonNull(actual, "actual")).connectAndStart(sender); // RS §1.9
    }

    @Override
    @SuppressWarnings("rawtypes") // Scannable declares the raw Attr
    public Object scanUnsafe(Attr key) {
        return ReactorSenders.scanSenderPublisher(sender, key);
    }

    @Override
    public String stepName() {
        return "toMono";
    }
}
