package dev.senders.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.senders.internal.Trampoline;
import dev.senders.reactor.ReactorSenders;
import java.util.concurrent.atomic.AtomicLong;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.JJ_Result;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;
import reactor.core.publisher.Mono;

/**
 * Result: r1 = the demand the source received in total; r2 = the cancels it received.
 */
@JCStressTest
@Description("Trampoline.BREAK_DEPTH nested toMono(fromMono(m).then(f)).map(..) levels: the innermost fused operator "
        + "is subscribed that many trampoline frames deep, so a TrampolinedSubscriber stands before its subscriber "
        + "and has handed itself to it before the source was subscribed. The source's onSubscribe (actor 1) races "
        + "the outermost subscriber's request(1) (actor 2), which reaches the TrampolinedSubscriber before or after "
        + "the source's subscription did. The demand reaches the source exactly once either way.")
@Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "the request reached the source once")
@Outcome(id = "0, .*", expect = FORBIDDEN, desc = "the demand was lost")
@Outcome(id = "[2-9], .*", expect = FORBIDDEN, desc = "the demand reached the source twice")
@Outcome(expect = FORBIDDEN, desc = "any other combination (a cancel nobody made)")
@State
public class DeepStagedMonoRequestVsOnSubscribe {

    final DeepSource source = new DeepSource();
    final Subscription subscription = source.subscribeNested(0); // no demand yet

    @Actor
    public void sourceSubscribes() {
        source.subscriber.onSubscribe(source);
    }

    @Actor
    public void request() {
        subscription.request(1);
    }

    @Arbiter
    public void arbiter(JJ_Result r) {
        r.r1 = source.requested.get();
        r.r2 = source.cancels.get();
    }

    /**
     * A {@code Mono} that only records its subscriber (the test calls {@code onSubscribe}) and is its
     * own subscription, counting demand and cancels.
     */
    static final class DeepSource extends Mono<Integer> implements Subscription {
        final AtomicLong requested = new AtomicLong();
        final AtomicLong cancels = new AtomicLong();
        volatile CoreSubscriber<? super Integer> subscriber;

        /**
         * Subscribes to {@link Trampoline#BREAK_DEPTH} levels of a fused crossing and a map over this
         * source, requesting {@code initial} (if positive) in {@code onSubscribe}, and returns the
         * outermost subscription; fails unless the innermost level is trampolined.
         */
        Subscription subscribeNested(long initial) {
            Mono<Integer> m = this;
            for (int i = 0; i < Trampoline.BREAK_DEPTH; i++) {
                m = ReactorSenders.toMono(ReactorSenders.fromMono(m).then(v -> v)).map(v -> v);
            }
            Subscription[] outermost = new Subscription[1];
            m.subscribe(new CoreSubscriber<Integer>() {
                @Override
                public void onSubscribe(Subscription s) {
                    outermost[0] = s;
                    if (initial > 0) {
                        s.request(initial);
                    }
                }

                @Override
                public void onNext(Integer v) {
                }

                @Override
                public void onError(Throwable t) {
                }

                @Override
                public void onComplete() {
                }
            });
            checkTrampolined();
            return outermost[0];
        }

        @Override
        public void subscribe(CoreSubscriber<? super Integer> s) {
            subscriber = s;
        }

        /** Fails the run unless the innermost operator's subscriber is the trampolined pass-through. */
        private void checkTrampolined() {
            Object actual = reactor.core.Scannable.from(subscriber).scanUnsafe(reactor.core.Scannable.Attr.ACTUAL);
            if (!(actual instanceof reactor.core.Scannable)
                    || !"toMono(then).trampolined".equals(((reactor.core.Scannable) actual).stepName())) {
                throw new IllegalStateException("the innermost level is not trampolined: " + actual);
            }
        }

        @Override
        public void request(long n) {
            requested.addAndGet(n);
        }

        @Override
        public void cancel() {
            cancels.incrementAndGet();
        }
    }
}
