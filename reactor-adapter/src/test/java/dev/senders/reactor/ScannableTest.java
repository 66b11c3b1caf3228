package dev.senders.reactor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.Senders;
import dev.senders.testkit.ManualSender;
import dev.senders.testkit.TestReceiver;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;
import reactor.core.Scannable;
import reactor.core.Scannable.Attr;
import reactor.core.publisher.BaseSubscriber;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/** Reactor's debugging tools ({@link Scannable}) see through the boundary's publishers and subscribers. */
class ScannableTest {

    @Test
    @DisplayName("toMono of a fromPublisher-style sender: PARENT is the publisher, so parents() walks through the sender")
    void toMonoParentIsThePublisherBehindTheSender() {
        Flux<Integer> flux = Flux.just(1, 2, 3);
        Mono<List<Integer>> mono = ReactorSenders.toMono(ReactorSenders.fromPublisherAll(flux));
        Scannable s = Scannable.from(mono);
        assertTrue(s.isScanAvailable());
        assertSame(flux, s.scan(Attr.PARENT));
        assertTrue(s.parents().anyMatch(p -> p == flux), "parents() reaches the Flux");
        assertEquals(Attr.RunStyle.ASYNC, s.scan(Attr.RUN_STYLE));
        assertEquals(1, s.scan(Attr.PREFETCH));
        assertEquals("toMono", s.stepName());
    }

    @Test
    @DisplayName("toMono of any other sender: no PARENT (a sender is not Scannable)")
    void toMonoOfAPlainSenderHasNoParent() {
        Scannable s = Scannable.from(ReactorSenders.toMono(Senders.just(1)));
        assertNull(s.scan(Attr.PARENT));
        assertEquals(Attr.RunStyle.ASYNC, s.scan(Attr.RUN_STYLE));
    }

    @Test
    @DisplayName("the subscription of toMono: ACTUAL, BUFFERED, CANCELLED, TERMINATED follow the subscription's life")
    void toMonoSubscriptionScans() {
        ManualSender<Integer> sender = new ManualSender<>();
        AtomicReference<Subscription> sub = new AtomicReference<>();
        BaseSubscriber<Integer> actual = new BaseSubscriber<>() {
            @Override
            protected void hookOnSubscribe(Subscription s) {
                sub.set(s); // no demand yet
            }
        };
        ReactorSenders.toMono(sender).subscribe(actual);
        Scannable s = Scannable.from(sub.get());
        assertSame(actual, s.scanUnsafe(Attr.ACTUAL)); // scan() would wrap it: BaseSubscriber is not Scannable
        assertFalse(s.scan(Attr.TERMINATED));
        assertEquals(1, s.scan(Attr.PREFETCH));
        sender.receiver().setValue(7);
        assertEquals(1, s.scan(Attr.BUFFERED), "the value waits for demand");
        assertTrue(s.scan(Attr.TERMINATED), "the sender completed");
        sub.get().cancel();
        assertTrue(s.scan(Attr.CANCELLED));
        assertEquals(0, s.scan(Attr.BUFFERED), "the value was discarded");
        assertNull(s.scanUnsafe(Attr.ACTUAL), "§3.13: the subscriber is no longer referenced");
    }

    @Test
    @DisplayName("the subscriber of fromPublisher: PARENT is the subscription, PREFETCH the demand, CANCELLED and TERMINATED")
    void fromPublisherSubscriberScans() {
        AtomicReference<Subscriber<? super Integer>> captured = new AtomicReference<>();
        Subscription upstream = new Subscription() {
            @Override
            public void request(long n) {}

            @Override
            public void cancel() {}
        };
        Publisher<Integer> p = s -> {
            captured.set(s);
            s.onSubscribe(upstream);
        };
        TestReceiver<List<Integer>> all = TestReceiver.start(ReactorSenders.fromPublisherAll(p));
        Scannable s = Scannable.from(captured.get());
        assertTrue(captured.get() instanceof CoreSubscriber);
        assertSame(upstream, s.scanUnsafe(Attr.PARENT));
        assertEquals(Integer.MAX_VALUE, s.scan(Attr.PREFETCH));
        assertEquals(Attr.RunStyle.SYNC, s.scan(Attr.RUN_STYLE));
        assertFalse(s.scan(Attr.TERMINATED));
        captured.get().onComplete();
        assertTrue(s.scan(Attr.TERMINATED));
        assertFalse(s.scan(Attr.CANCELLED));
        assertEquals(List.of(), all.value());

        TestReceiver<Integer> first = TestReceiver.start(ReactorSenders.fromPublisher(p));
        Scannable f = Scannable.from(captured.get());
        assertEquals(1, f.scan(Attr.PREFETCH));
        first.requestStop();
        assertTrue(f.scan(Attr.CANCELLED));
        assertFalse(f.scan(Attr.TERMINATED), "cancelled, not terminated by the publisher");
    }
}
