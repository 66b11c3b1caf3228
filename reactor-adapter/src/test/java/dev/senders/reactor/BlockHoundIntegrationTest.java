package dev.senders.reactor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.Hooks;
import dev.senders.InplaceStopSource;
import dev.senders.Sender;
import dev.senders.Senders;
import dev.senders.StopCallback;
import dev.senders.scope.CountingScope;
import dev.senders.scope.Scopes;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import reactor.blockhound.BlockHound;
import reactor.blockhound.BlockingOperationError;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/** Runs in its own Surefire fork (BlockHound instruments the JDK for the rest of the JVM's life). */
@DisplayName("BlockHound: blocking in spawned work and on the timer thread is caught; the library's own waits are allowed")
class BlockHoundIntegrationTest {

    private final List<Throwable> dropped = new CopyOnWriteArrayList<>();

    @BeforeAll
    static void install() {
        BlockHound.install(); // loads SendersBlockHoundIntegration through ServiceLoader
    }

    @BeforeEach
    void hook() {
        Hooks.setOnErrorDropped(dropped::add);
    }

    @AfterEach
    void unhook() {
        Hooks.resetOnErrorDropped();
    }

    @Test
    @DisplayName("blocking inside work spawned onto Schedulers.parallel() reaches the scope's handler as BlockingOperationError")
    void blockingInSpawnedWork_caught() throws Exception {
        List<Throwable> errors = new CopyOnWriteArrayList<>();
        CountingScope scope = new CountingScope("blockhound", errors::add);
        Sender<Object> blocking = Senders.schedule(ReactorSchedulers.from(Schedulers.parallel())).then(v -> {
            try {
                Thread.sleep(1);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return null;
        });
        Scopes.spawn(Scopes.named(blocking, "sleeper"), scope.getToken());
        scope.close();
        Senders.syncWait(scope.join(), Duration.ofSeconds(10));
        assertEquals(1, errors.size(), errors::toString);
        assertTrue(errors.get(0) instanceof BlockingOperationError, () -> "error: " + errors.get(0));
        assertEquals("sleeper", dev.senders.scope.ScopeTrace.find(errors.get(0)).orElseThrow().workName().orElseThrow());
    }

    @Test
    @DisplayName("syncWait on an ordinary thread (the library's legitimate blocking) is allowed")
    void syncWaitOnOrdinaryThread_allowed() throws Exception {
        Integer v = Mono.fromCallable(() -> Senders.syncWait(
                Senders.schedule(ReactorSchedulers.from(Schedulers.parallel())).then(x -> 5), Duration.ofSeconds(10)))
                .subscribeOn(Schedulers.boundedElastic()).block(Duration.ofSeconds(10));
        assertEquals(5, v);
        assertEquals(List.of(), dropped);
    }

    @Test
    @DisplayName("a stop callback that blocks on the timer thread is reported; the timer's own waits are not")
    void blockingOnTimerThread_caught() {
        Sender<Integer> blocksOnStop = r -> () -> r.env().stopToken().onStop(() -> {
            try {
                Thread.sleep(1);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                r.setStopped();
            }
        });
        CompletionException e = org.junit.jupiter.api.Assertions.assertThrows(CompletionException.class,
                () -> Senders.syncWait(Senders.timeout(blocksOnStop, Duration.ofMillis(500))));
        assertTrue(e.getCause() instanceof TimeoutException);
        // the callback completed the work in its finally block; the error reaches the hook right after
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (dropped.isEmpty() && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertEquals(1, dropped.size(), dropped::toString);
        assertTrue(dropped.get(0) instanceof BlockingOperationError, () -> "dropped: " + dropped.get(0));
        assertTrue(dropped.get(0).getMessage().contains("Thread.sleep"), dropped.get(0).getMessage());
    }

    @Test
    @DisplayName("timeouts scheduled and cancelled from a parallel thread are allowed")
    void timeoutFromParallelThread_allowed() {
        Integer v = Mono.fromCallable(() -> {
            for (int i = 0; i < 1000; i++) {
                dev.senders.testkit.TestReceiver<Integer> r = dev.senders.testkit.TestReceiver.start(
                        Senders.just(i).timeout(Duration.ofMinutes(1)));
                r.value();
            }
            return 1;
        }).subscribeOn(Schedulers.parallel()).block(Duration.ofSeconds(30));
        assertEquals(1, v);
        assertEquals(List.of(), dropped);
    }

    @Test
    @DisplayName("a stop-callback deregistration waiting for the running callback is allowed on a parallel thread")
    void deregistrationWaitingForCallback_allowed() throws Exception {
        InplaceStopSource source = new InplaceStopSource();
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        StopCallback cb = source.token().onStop(() -> {
            running.countDown();
            try {
                release.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        Thread stopper = new Thread(source::requestStop, "stopper");
        stopper.start();
        assertTrue(running.await(10, TimeUnit.SECONDS));
        java.util.concurrent.atomic.AtomicReference<Thread> closer = new java.util.concurrent.atomic.AtomicReference<>();
        Mono<Object> close = Mono.fromRunnable(() -> {
            closer.set(Thread.currentThread());
            cb.close(); // parks until the callback has returned
        }).subscribeOn(Schedulers.parallel());
        Thread releaser = new Thread(() -> {
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (System.nanoTime() < deadline
                    && (closer.get() == null || closer.get().getState() != Thread.State.WAITING)) {
                Thread.onSpinWait();
            }
            release.countDown();
        });
        releaser.start();
        close.block(Duration.ofSeconds(10)); // would throw BlockingOperationError without the allowance
        stopper.join();
        releaser.join();
        assertEquals(List.of(), dropped);
    }
}
