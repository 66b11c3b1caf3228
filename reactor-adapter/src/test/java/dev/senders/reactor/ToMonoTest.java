package dev.senders.reactor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.ProtocolViolationException;
import dev.senders.Receiver;
import dev.senders.Sender;
import dev.senders.Senders;
import dev.senders.testkit.ManualSender;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.reactivestreams.Subscription;
import reactor.core.publisher.BaseSubscriber;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Hooks;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;
import reactor.util.context.Context;
import reactor.util.context.ContextView;

class ToMonoTest {

    @AfterEach
    void resetHooks() {
        Hooks.resetOnErrorDropped();
        Hooks.resetOnNextDropped();
    }

    @Test
    void toMono_valueIsOnNextThenOnComplete() {
        StepVerifier.create(ReactorSenders.toMono(Senders.just("v"))).expectNext("v").verifyComplete();
    }

    @Test
    void toMono_nullValueIsEmptyCompletion() {
        StepVerifier.create(ReactorSenders.toMono(Senders.just())).verifyComplete();
    }

    @Test
    void toMono_setErrorIsOnError() {
        IllegalStateException boom = new IllegalStateException("boom");
        StepVerifier.create(ReactorSenders.toMono(Senders.justError(boom)))
                .expectErrorSatisfies(e -> assertEquals(boom, e)).verify();
    }

    @Test
    void toMono_setStoppedNotCausedBySubscriberIsCancellationException() {
        StepVerifier.create(ReactorSenders.toMono(Senders.justStopped()))
                .expectError(CancellationException.class).verify();
    }

    @Test
    void toMono_valueEmittedOnlyAfterDemand() {
        ManualSender<String> sender = new ManualSender<>();
        Recorder<String> rec = new Recorder<>();
        ReactorSenders.toMono(sender).subscribe(rec);
        sender.receiver().setValue("v");
        assertEquals(List.of("onSubscribe"), rec.signals, "§1.1: nothing before request(n)");
        rec.subscription.request(1);
        assertEquals(List.of("onSubscribe", "onNext(v)", "onComplete"), rec.signals);
        rec.subscription.request(5); // §3.6: after termination request is a no-op
        assertEquals(3, rec.signals.size());
    }

    @Test
    void toMono_emptyAndErrorNeedNoDemand() {
        Recorder<String> empty = new Recorder<>();
        ReactorSenders.<String>toMono(Senders.just(null)).subscribe(empty);
        assertEquals(List.of("onSubscribe", "onComplete"), empty.signals);
        Recorder<String> failed = new Recorder<>();
        ReactorSenders.<String>toMono(Senders.justError(new RuntimeException())).subscribe(failed);
        assertEquals(List.of("onSubscribe", "onError(RuntimeException)"), failed.signals);
    }

    @Test
    void toMono_isCold_eachSubscriptionConnectsAndStartsAnew() {
        AtomicInteger starts = new AtomicInteger();
        Sender<Integer> counting = r -> () -> r.setValue(starts.incrementAndGet());
        Mono<Integer> mono = ReactorSenders.toMono(counting);
        assertEquals(0, starts.get(), "assembly has no side effect");
        StepVerifier.create(mono).expectNext(1).verifyComplete();
        StepVerifier.create(mono).expectNext(2).verifyComplete();
    }

    @Test
    void toMono_cancelRequestsStopOnTheReceiversTokenAndSignalsNothing() {
        ManualSender<String> sender = new ManualSender<>();
        Recorder<String> rec = new Recorder<>();
        ReactorSenders.toMono(sender).subscribe(rec);
        Receiver<? super String> r = sender.receiver();
        assertFalse(r.env().stopToken().stopRequested());
        rec.subscription.cancel();
        assertTrue(r.env().stopToken().stopRequested());
        r.setStopped(); // the sender's answer to the stop request
        assertEquals(List.of("onSubscribe"), rec.signals);
    }

    @Test
    void toMono_eachSubscriptionHasItsOwnStopToken() {
        ManualSender<String> sender = new ManualSender<>();
        Recorder<String> a = new Recorder<>();
        Recorder<String> b = new Recorder<>();
        Mono<String> mono = ReactorSenders.toMono(sender);
        mono.subscribe(a);
        mono.subscribe(b);
        a.subscription.cancel();
        assertTrue(sender.started().get(0).env().stopToken().stopRequested());
        assertFalse(sender.started().get(1).env().stopToken().stopRequested());
    }

    @Test
    void toMono_disposeOfSubscribeIsStopRequest() {
        ManualSender<String> sender = new ManualSender<>();
        ReactorSenders.toMono(sender).subscribe().dispose();
        assertTrue(sender.receiver().env().stopToken().stopRequested());
    }

    @Test
    void toMono_cancelInsideOnSubscribeNeverStartsTheSender() {
        ManualSender<String> sender = new ManualSender<>();
        ReactorSenders.toMono(sender).subscribe(new BaseSubscriber<String>() {
            @Override
            protected void hookOnSubscribe(Subscription s) {
                s.cancel();
            }
        });
        assertEquals(1, sender.connects());
        assertTrue(sender.started().isEmpty(), "an unstarted operation is dropped");
    }

    @Test
    void toMono_rule3_9_nonPositiveRequestIsIllegalArgumentExceptionAndStopsTheSender() {
        ManualSender<String> sender = new ManualSender<>();
        Recorder<String> rec = new Recorder<>();
        ReactorSenders.toMono(sender).subscribe(rec);
        rec.subscription.request(0);
        assertInstanceOf(IllegalArgumentException.class, rec.error);
        assertTrue(sender.receiver().env().stopToken().stopRequested());
        sender.receiver().setValue("late");
        assertEquals(List.of("onSubscribe", "onError(IllegalArgumentException)"), rec.signals);
        assertEquals(List.of("late"), rec.discarded);
    }

    @Test
    void toMono_valueArrivingAfterCancelGoesToReactorsDiscardHook() {
        ManualSender<String> sender = new ManualSender<>();
        Recorder<String> rec = new Recorder<>();
        ReactorSenders.toMono(sender).subscribe(rec);
        rec.subscription.cancel();
        sender.receiver().setValue("v");
        assertEquals(List.of("v"), rec.discarded);
        assertEquals(List.of("onSubscribe"), rec.signals);
    }

    @Test
    void toMono_bufferedValueIsDiscardedWhenCancelledBeforeDemand() {
        ManualSender<String> sender = new ManualSender<>();
        Recorder<String> rec = new Recorder<>();
        ReactorSenders.toMono(sender).subscribe(rec);
        sender.receiver().setValue("v");
        rec.subscription.cancel();
        assertEquals(List.of("v"), rec.discarded);
        rec.subscription.request(1);
        assertEquals(List.of("onSubscribe"), rec.signals);
    }

    @Test
    void toMono_errorAfterCancelGoesToOperatorsOnErrorDropped() {
        List<Throwable> dropped = new CopyOnWriteArrayList<>();
        Hooks.onErrorDropped(dropped::add);
        ManualSender<String> sender = new ManualSender<>();
        Recorder<String> rec = new Recorder<>();
        ReactorSenders.toMono(sender).subscribe(rec);
        rec.subscription.cancel();
        IllegalStateException late = new IllegalStateException("late");
        sender.receiver().setError(late);
        assertEquals(List.of(late), dropped);
        assertEquals(List.of("onSubscribe"), rec.signals);
    }

    @Test
    void toMono_secondCompletionOfTheSenderIsReportedAsProtocolViolation() {
        List<Throwable> dropped = new CopyOnWriteArrayList<>();
        Hooks.onErrorDropped(dropped::add);
        Sender<String> twice = r -> () -> {
            r.setValue("a");
            r.setStopped();
        };
        StepVerifier.create(ReactorSenders.toMono(twice)).expectNext("a").verifyComplete();
        assertEquals(1, dropped.size());
        assertInstanceOf(ProtocolViolationException.class, dropped.get(0));
    }

    @Test
    void toMono_connectThatThrowsIsOnError() {
        Sender<String> broken = r -> {
            throw new IllegalStateException("connect failed");
        };
        StepVerifier.create(ReactorSenders.toMono(broken))
                .expectErrorMessage("connect failed").verify();
    }

    @Test
    void toMono_completesOnTheSendersThread() {
        ManualSender<String> sender = new ManualSender<>();
        List<Thread> seen = new CopyOnWriteArrayList<>();
        ReactorSenders.toMono(sender).subscribe(v -> seen.add(Thread.currentThread()));
        Thread t = new Thread(() -> sender.receiver().setValue("v"), "completer");
        t.start();
        assertTimeoutJoin(t);
        assertEquals(List.of(t), seen);
    }

    @Test
    void toMono_senderSeesTheSubscribersContextThroughTheContextQuery() {
        Mono<String> mono = ReactorSenders.toMono(Senders.read(ReactorSenders.CONTEXT))
                .map(ctx -> ctx.<String>get("user"))
                .contextWrite(Context.of("user", "alice"));
        StepVerifier.create(mono).expectNext("alice").verifyComplete();
    }

    @Test
    void toFlux_senderSeesTheSubscribersContextThroughTheContextQuery() {
        Flux<ContextView> flux = ReactorSenders.toFlux(Senders.read(ReactorSenders.CONTEXT));
        StepVerifier.create(flux.map(ctx -> ctx.<String>getOrDefault("k", "none")).contextWrite(Context.of("k", "v")))
                .expectNext("v").verifyComplete();
    }

    @Test
    void toFlux_emitsZeroOrOneElementWithTheSameMapping() {
        StepVerifier.create(ReactorSenders.toFlux(Senders.just(1))).expectNext(1).verifyComplete();
        StepVerifier.create(ReactorSenders.toFlux(Senders.just())).verifyComplete();
        StepVerifier.create(ReactorSenders.toFlux(Senders.justStopped()))
                .expectError(CancellationException.class).verify();
        StepVerifier.create(ReactorSenders.toFlux(Senders.just("x")), 0)
                .expectSubscription().thenRequest(1).expectNext("x").verifyComplete();
    }

    @Test
    void toMono_withoutContextTheQueryYieldsEmptyContext() {
        ManualSender<ContextView> sender = new ManualSender<>();
        ReactorSenders.toMono(sender).subscribe();
        assertTrue(sender.receiver().env().get(ReactorSenders.CONTEXT).isEmpty());
        assertNull(sender.receiver().env().scheduler().orElse(null));
    }

    @Test
    void publicEntryPointsRejectNull() {
        assertThrows(NullPointerException.class, () -> ReactorSenders.toMono(null));
        assertThrows(NullPointerException.class, () -> ReactorSenders.toFlux(null));
        assertThrows(NullPointerException.class, () -> ReactorSenders.fromMono(null));
        assertThrows(NullPointerException.class, () -> ReactorSenders.fromMonoOptional(null));
        assertThrows(NullPointerException.class, () -> ReactorSenders.fromPublisher(null));
        assertThrows(NullPointerException.class, () -> ReactorSenders.fromPublisherSingle(null));
        assertThrows(NullPointerException.class, () -> ReactorSenders.fromPublisherLast(null));
        assertThrows(NullPointerException.class, () -> ReactorSenders.fromPublisherAll(null));
        assertThrows(NullPointerException.class, () -> ReactorSenders.fromPublisherIgnoreElements(null));
        assertThrows(NullPointerException.class, () -> ReactorSchedulers.from(null));
        assertThrows(NullPointerException.class, () -> ReactorSchedulers.toReactor(null));
    }

    @Test
    void toMono_reactorHookThatThrowsNeverThrowsIntoTheSendersThread() {
        List<Throwable> senderHook = new CopyOnWriteArrayList<>();
        Hooks.onErrorDropped(e -> {
            throw new IllegalStateException("hook failed");
        });
        dev.senders.Hooks.setOnErrorDropped(senderHook::add);
        try {
            ManualSender<String> sender = new ManualSender<>();
            Recorder<String> rec = new Recorder<>();
            ReactorSenders.toMono(sender).subscribe(rec);
            rec.subscription.cancel();
            RuntimeException late = new RuntimeException("late");
            sender.receiver().setError(late); // must return normally
            assertEquals(1, senderHook.size());
            assertEquals("hook failed", senderHook.get(0).getMessage());
            assertEquals(late, senderHook.get(0).getSuppressed()[0]);
        } finally {
            dev.senders.Hooks.resetOnErrorDropped();
        }
    }

    static void assertTimeoutJoin(Thread t) {
        try {
            t.join(10_000); // hang guard only
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
        assertFalse(t.isAlive(), "hang guard");
    }
}
