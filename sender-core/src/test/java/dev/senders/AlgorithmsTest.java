package dev.senders;

import static dev.senders.Senders.just;
import static dev.senders.Senders.syncWait;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.testkit.ManualSender;
import dev.senders.testkit.TestReceiver;
import java.util.concurrent.CancellationException;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Channel semantics of the adaptors (P2300R3 [exec.adaptors]). */
class AlgorithmsTest {

    private static final RuntimeException BOOM = new IllegalStateException("boom");

    @Test
    @DisplayName("[exec.then] then maps values; errors and stopped pass through")
    void then_passesErrorAndStoppedThrough() {
        assertEquals(2, syncWait(just(1).<Integer>then(x -> x + 1)));
        assertSame(BOOM, assertThrows(IllegalStateException.class,
                () -> syncWait(Senders.<Integer>justError(BOOM).then(x -> x + 1))));
        assertThrows(CancellationException.class, () -> syncWait(Senders.<Integer>justStopped().then(x -> x + 1)));
    }

    @Test
    @DisplayName("[exec.upon_error] [exec.upon_stopped] recover only their channel")
    void uponError_uponStopped_recoverTheirChannel() {
        assertEquals(7, syncWait(Senders.<Integer>justError(BOOM).uponError(e -> 7)));
        assertEquals(1, syncWait(just(1).uponError(e -> 7)));
        assertThrows(CancellationException.class, () -> syncWait(Senders.<Integer>justStopped().uponError(e -> 7)));
        assertEquals(8, syncWait(Senders.<Integer>justStopped().uponStopped(() -> 8)));
        assertSame(BOOM, assertThrows(IllegalStateException.class,
                () -> syncWait(Senders.<Integer>justError(BOOM).uponStopped(() -> 8))));
    }

    @Test
    @DisplayName("[exec.let] letValue/letError/letStopped chain senders on their channel only")
    void let_chainsOnTheirChannel() {
        assertEquals("1!", syncWait(just(1).letValue(x -> just(x + "!"))));
        assertEquals(3, syncWait(Senders.<Integer>justError(BOOM).letError(e -> just(3))));
        assertEquals(4, syncWait(Senders.<Integer>justStopped().letStopped(() -> just(4))));
        assertSame(BOOM, assertThrows(IllegalStateException.class,
                () -> syncWait(Senders.<Integer>justError(BOOM).letValue(x -> just(x)))));
        assertThrows(CancellationException.class,
                () -> syncWait(Senders.<Integer>justStopped().letError(e -> just(1))));
        assertEquals(1, syncWait(just(1).letStopped(() -> just(2))));
        // a null sender from the function is an error
        assertThrows(NullPointerException.class, () -> syncWait(just(1).letValue(x -> null)));
    }

    @Test
    @DisplayName("[exec.stopped_as_error] stopped becomes the supplied error")
    void stoppedAsError_turnsStoppedIntoError() {
        assertThrows(TimeoutException.class, () -> {
            try {
                syncWait(Senders.<Integer>justStopped().stoppedAsError(TimeoutException::new));
            } catch (java.util.concurrent.CompletionException e) {
                throw e.getCause();
            }
        });
        assertEquals(1, syncWait(just(1).stoppedAsError(TimeoutException::new)));
    }

    @Test
    @DisplayName("stopWhen: the child sees stop when the given token fires")
    void stopWhen_givenTokenStopsChild() {
        InplaceStopSource trigger = new InplaceStopSource();
        ManualSender<Integer> work = new ManualSender<>(true);
        TestReceiver<Integer> r = new TestReceiver<>();
        work.stopWhen(trigger.token()).connect(r).start();
        assertEquals(0, r.completions());
        trigger.requestStop();
        assertEquals(1, work.stopsSeen());
        assertEquals(TestReceiver.Kind.STOPPED, r.single().kind());
    }

    @Test
    @DisplayName("stopWhen: the child sees stop when the receiver's token fires")
    void stopWhen_receiverTokenStopsChild() {
        InplaceStopSource trigger = new InplaceStopSource();
        InplaceStopSource downstream = new InplaceStopSource();
        ManualSender<Integer> work = new ManualSender<>(true);
        TestReceiver<Integer> r = TestReceiver.withStopToken(downstream.token());
        work.stopWhen(trigger.token()).connect(r).start();
        downstream.requestStop();
        assertEquals(1, work.stopsSeen());
        assertEquals(TestReceiver.Kind.STOPPED, r.single().kind());
    }

    @Test
    @DisplayName("stopWhen: with a stoppable downstream, after completion the trigger no longer reaches the (finished) child")
    void stopWhen_deregistersOnCompletion() {
        InplaceStopSource trigger = new InplaceStopSource();
        ManualSender<Integer> work = new ManualSender<>(false);
        TestReceiver<Integer> r = new TestReceiver<>(Env.of(Query.STOP_TOKEN, new InplaceStopSource().token()));
        work.stopWhen(trigger.token()).connect(r).start();
        work.complete(1);
        trigger.requestStop();
        assertEquals(0, work.stopsSeen());
        assertEquals(1, r.single().payload());
        // the never token adds nothing
        Sender<Integer> s = just(1);
        assertSame(s, s.stopWhen(StopToken.never()));
    }

    @Test
    @DisplayName("stopWhen: a downstream that cannot stop costs no stop source: the child sees the trigger's token itself")
    void stopWhen_unstoppableDownstreamBindsTheTokenDirectly() {
        InplaceStopSource trigger = new InplaceStopSource();
        TestReceiver<StopToken> r = new TestReceiver<>();
        Senders.read(Query.STOP_TOKEN).stopWhen(trigger.token()).connect(r).start();
        assertSame(trigger.token(), r.single().payload());
        TestReceiver<StopToken> stoppable = new TestReceiver<>(Env.of(Query.STOP_TOKEN, new InplaceStopSource().token()));
        Senders.read(Query.STOP_TOKEN).stopWhen(trigger.token()).connect(stoppable).start();
        Object seen = stoppable.single().payload();
        assertTrue(seen != trigger.token() && ((StopToken) seen).stopPossible(), "a combined token of its own");
    }

    @Test
    @DisplayName("[exec.let] letValue's produced sender sees the downstream env")
    void letValue_producedSenderSeesDownstreamEnv() {
        Query<String> key = Query.of("k", "none");
        TestReceiver<String> r = new TestReceiver<>(Env.of(key, "yes"));
        just(1).letValue(x -> Senders.read(key)).connect(r).start();
        assertEquals("yes", r.single().payload());
    }
}
