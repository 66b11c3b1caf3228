package dev.senders.examples.rxjava;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.scope.ScopeState;
import io.reactivex.rxjava3.plugins.RxJavaPlugins;
import io.reactivex.rxjava3.schedulers.Schedulers;
import java.time.Duration;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The same notification service on a {@code CompositeDisposable} and on
 * {@code RxScopes.asContainer(scope)}, shut down while every delivery is still running (the mailer
 * is gated, so "still running" is certain).
 */
class NotificationServiceTest {

    static final int SENT = 50;

    final CountDownLatch gate = new CountDownLatch(1);
    final CountDownLatch allStarted = new CountDownLatch(SENT);
    final AtomicInteger started = new AtomicInteger();
    final AtomicInteger delivered = new AtomicInteger();
    final Queue<Throwable> errors = new ConcurrentLinkedQueue<>();
    final Queue<Throwable> undeliverable = new ConcurrentLinkedQueue<>();

    final Mailer gatedMailer = (to, text) -> {
        started.incrementAndGet();
        allStarted.countDown();
        if (!gate.await(30, TimeUnit.SECONDS)) {                 // hang guard only
            throw new IllegalStateException("gate never opened");
        }
        delivered.incrementAndGet();
    };

    @BeforeEach
    void collectUndeliverableErrors() {
        RxJavaPlugins.setErrorHandler(undeliverable::add);       // errors after dispose land here
    }

    @AfterEach
    void resetPlugins() {
        gate.countDown();
        RxJavaPlugins.reset();
    }

    @Test
    @DisplayName("CompositeDisposable: shutdown cannot wait, every running delivery is lost")
    void composite_losesRunningDeliveriesOnShutdown() throws Exception {
        NotificationService service = new CompositeNotificationService(gatedMailer, Schedulers.io(), errors::add);
        for (int i = 0; i < SENT; i++) {
            service.send("user" + i + "@example.com", "your order shipped");
        }
        assertTrue(allStarted.await(10, TimeUnit.SECONDS), "all deliveries are running");

        assertFalse(service.shutdown(Duration.ofSeconds(5)), "it had to dispose running work");
        awaitUndeliverable(SENT);                                // each interrupted delivery's error
        gate.countDown();                                        // too late: they were disposed

        assertTrue(delivered.get() < SENT, "lost: " + delivered.get() + " of " + SENT + " delivered");
        assertTrue(errors.isEmpty(), "the service's own error handler saw nothing: " + errors);
    }

    @Test
    @DisplayName("RxScopes.asContainer: shutdown closes and joins, every running delivery finishes")
    void scoped_joinsAllRunningDeliveriesOnShutdown() throws Exception {
        ScopedNotificationService service = new ScopedNotificationService(gatedMailer, Schedulers.io(), errors::add);
        for (int i = 0; i < SENT; i++) {
            service.send("user" + i + "@example.com", "your order shipped");
        }
        assertTrue(allStarted.await(10, TimeUnit.SECONDS), "all deliveries are running");

        CompletableFuture<Boolean> shutdown = CompletableFuture.supplyAsync(() -> {
            try {
                return service.shutdown(Duration.ofSeconds(20));
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        Awaitility.await("shutdown started joining").atMost(Duration.ofSeconds(10))
                .until(() -> service.scope().state() == ScopeState.CLOSED_AND_JOINING);
        service.send("late@example.com", "refused: the scope is closed");
        assertFalse(shutdown.isDone(), "shutdown waits for the running deliveries");

        gate.countDown();
        assertTrue(shutdown.get(20, TimeUnit.SECONDS), "joined: nothing had to be stopped");

        assertEquals(SENT, delivered.get(), "every delivery accepted before shutdown finished");
        assertEquals(SENT, started.get(), "the delivery sent after close never ran");
        assertEquals(ScopeState.JOINED, service.scope().state());
        assertEquals(0, service.scope().count());
        assertTrue(errors.isEmpty(), errors::toString);
    }

    @Test
    @DisplayName("RxScopes.asContainer: past the timeout, shutdown disposes what is left and still joins")
    void scoped_timeoutDisposesWhatIsLeft() throws Exception {
        ScopedNotificationService service = new ScopedNotificationService(gatedMailer, Schedulers.io(), errors::add);
        for (int i = 0; i < SENT; i++) {
            service.send("user" + i + "@example.com", "your order shipped");
        }
        assertTrue(allStarted.await(10, TimeUnit.SECONDS), "all deliveries are running");

        assertFalse(service.shutdown(Duration.ofMillis(200)), "the gate stays shut: the rest is stopped");
        assertEquals(ScopeState.JOINED, service.scope().state());
        assertEquals(0, service.scope().count());
        assertEquals(0, delivered.get());
        awaitUndeliverable(SENT);                                // stopped deliveries were interrupted
    }

    /** Waits until {@code n} errors reached RxJavaPlugins.onError (hang guard only). */
    private void awaitUndeliverable(int n) {
        Awaitility.await(n + " errors reached RxJavaPlugins.onError").atMost(Duration.ofSeconds(10))
                .until(() -> undeliverable.size() >= n);
    }
}
