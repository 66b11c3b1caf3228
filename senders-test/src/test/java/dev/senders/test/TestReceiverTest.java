package dev.senders.test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.Env;
import dev.senders.OperationState;
import dev.senders.Query;
import dev.senders.Receiver;
import dev.senders.Sender;
import dev.senders.Senders;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

class TestReceiverTest {

    /** A sender that completes twice: a value, then an error. */
    private static final Sender<String> TWICE = new Sender<>() {
        @Override
        public OperationState connect(Receiver<? super String> r) {
            return () -> {
                r.setValue("first");
                r.setError(new IllegalStateException("second"));
            };
        }
    };

    @Test
    void assertsTheValue() {
        TestReceiver.start(Senders.just("a")).await().assertValue("a").assertValue(v -> v.startsWith("a"));
        AssertionError e = assertThrows(AssertionError.class, () -> TestReceiver.start(Senders.just("a")).assertValue("b"));
        assertEquals("expected the value <b> but got <a>", e.getMessage());
    }

    @Test
    void assertsTheErrorByTypeMessageAndPredicate() {
        TestReceiver<Object> r = TestReceiver.start(Senders.justError(new IllegalStateException("boom")));
        r.assertError(IllegalStateException.class).assertErrorMessage("boom").assertError(e -> e.getMessage().length() == 4);
        AssertionError wrongType = assertThrows(AssertionError.class, () -> r.assertError(TimeoutException.class));
        assertTrue(wrongType.getMessage().contains("expected an error of type java.util.concurrent.TimeoutException"));
        assertThrows(AssertionError.class, () -> r.assertErrorMessage("bang"));
        assertThrows(AssertionError.class, () -> r.assertError(e -> false));
        assertThrows(AssertionError.class, r::assertStopped);
    }

    @Test
    void assertsStopped() {
        TestReceiver.start(Senders.justStopped()).assertStopped();
        assertThrows(AssertionError.class, () -> TestReceiver.start(Senders.just(1)).assertStopped());
    }

    @Test
    void assertsNotCompletedYetAndWaitsWithADeadline() {
        CompletableFuture<String> later = new CompletableFuture<>();
        TestReceiver<String> r = TestReceiver.start(Senders.fromCompletionStage(later));
        r.assertNotCompleted();
        AssertionError late = assertThrows(AssertionError.class, () -> r.await(Duration.ofMillis(20)));
        assertEquals("the sender did not complete within 20 ms", late.getMessage());
        new Thread(() -> later.complete("x")).start();
        r.await().assertValue("x");
        assertThrows(AssertionError.class, r::assertNotCompleted);
    }

    @Test
    void requestStopReachesTheSenderThroughItsStopToken() {
        TestReceiver<Void> r = TestReceiver.start(Senders.fromCompletionStage(new CompletableFuture<Void>()));
        r.assertNotCompleted();
        assertTrue(r.requestStop());
        r.await().assertStopped();
    }

    @Test
    void aSecondCompletionFailsEveryAssertionAndShowsBothSignals() {
        TestReceiver<String> r = TestReceiver.start(TWICE);
        assertEquals(2, r.signals().size());
        AssertionError e = assertThrows(AssertionError.class, () -> r.assertValue("first"));
        assertTrue(e.getMessage().contains("2 completions, a protocol violation"), e.getMessage());
        assertTrue(e.getMessage().contains("VALUE(first) on ") && e.getMessage().contains(", then ERROR(java.lang.IllegalStateException: second)"),
                e.getMessage());
        assertEquals("second", e.getCause().getMessage());
    }

    @Test
    void theEnvHoldsWhatWasGivenAndTheReceiversStopToken() {
        Query<String> tenant = Query.named("tenant");
        TestReceiver<Object> r = new TestReceiver<>(Env.of(tenant, "acme"));
        assertEquals("acme", r.env().get(tenant));
        assertTrue(r.env().get(Query.STOP_TOKEN).stopPossible());
    }
}
