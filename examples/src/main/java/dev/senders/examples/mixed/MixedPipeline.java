package dev.senders.examples.mixed;

import dev.senders.Sender;
import dev.senders.Senders;
import dev.senders.reactor.ReactorSenders;
import dev.senders.rxjava3.RxSenders;
import io.reactivex.rxjava3.core.Single;
import java.time.Duration;
import java.util.Objects;
import java.util.function.UnaryOperator;
import reactor.core.publisher.Mono;
import reactor.util.context.Context;

/**
 * One pipeline through five layers: <b>Reactor -> sender -> RxJava -> sender -> Reactor</b>, with
 * the Reactor {@code Context} and cancellation crossing every boundary.
 *
 * <pre>
 *  Mono (what the caller subscribes to)               ReactorSenders.toMono
 *   └ sender: read the Context, run the RxJava stage   Senders.read(CONTEXT).letValue(..)
 *      └ Single (RxJava operators)                     RxSenders.fromSingle(rxStage(..))
 *         └ sender                                     RxSenders.toSingle(..)
 *            └ Mono (the innermost source)             ReactorSenders.fromMono(inner.contextWrite(ctx))
 * </pre>
 *
 * <ul>
 * <li><b>Context.</b> Between Reactor and senders it travels by itself: {@code toMono} exposes the
 *     subscriber's {@code Context} as {@code env().get(ReactorSenders.CONTEXT)}, and
 *     {@code fromMono} hands the receiver's {@code CONTEXT} to the Mono it subscribes. RxJava has no
 *     context, so it cannot carry it through the {@code Single}: the sender reads it before entering
 *     RxJava ({@code Senders.read}) and the innermost Mono gets it back with {@code contextWrite}.
 * <li><b>Cancellation.</b> Cancelling the outer subscription requests stop on the outer sender,
 *     which disposes the {@code Single} (RxJava's {@code doOnDispose} sees it), whose subscription
 *     requests stop on the inner sender, which cancels the innermost Mono. No layer needs to know
 *     about the others.
 * </ul>
 */
public final class MixedPipeline {

    private MixedPipeline() {
    }

    /**
     * The five-layer pipeline around {@code innermost}, with {@code rxStage} applied in the RxJava
     * layer.
     */
    public static <T> Mono<T> of(Mono<T> innermost, UnaryOperator<Single<T>> rxStage) {
        Objects.requireNonNull(innermost, "innermost");
        Objects.requireNonNull(rxStage, "rxStage");
        Sender<T> outer = Senders.read(ReactorSenders.CONTEXT).letValue(ctx -> {
            Sender<T> inner = ReactorSenders.fromMono(innermost.contextWrite(ctx));  // Reactor -> sender
            Single<T> rx = rxStage.apply(RxSenders.toSingle(inner));               // sender -> RxJava
            return RxSenders.fromSingle(rx);                                         // RxJava -> sender
        });
        return ReactorSenders.toMono(outer);                                         // sender -> Reactor
    }

    /** Prints one value that crossed all layers with its context key, then one cancellation. */
    public static void main(String[] args) throws InterruptedException {
        Mono<String> greeting = of(
                Mono.deferContextual(ctx -> Mono.just("hello, " + ctx.get("tenant"))),
                single -> single.map(String::toUpperCase)
                        .subscribeOn(io.reactivex.rxjava3.schedulers.Schedulers.io()));
        System.out.println("value:  " + greeting.contextWrite(Context.of("tenant", "acme")).block(Duration.ofSeconds(10)));

        java.util.concurrent.CountDownLatch cancelled = new java.util.concurrent.CountDownLatch(1);
        reactor.core.Disposable d = of(
                Mono.<String>never().doOnCancel(cancelled::countDown),
                single -> single.doOnDispose(() -> System.out.println("cancel: the RxJava Single was disposed")))
                .contextWrite(Context.of("tenant", "acme"))
                .subscribe();
        d.dispose();
        System.out.println("cancel: the innermost Mono was cancelled: " + cancelled.await(10, java.util.concurrent.TimeUnit.SECONDS));
    }
}
