package dev.senders.reactor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.Hooks;
import dev.senders.Senders;
import java.time.Duration;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

@DisplayName("syncWait on a Reactor non-blocking thread fails fast, as Mono.block() does")
class NonBlockingThreadsTest {

    private static Throwable syncWaitOn(reactor.core.scheduler.Scheduler scheduler) {
        return Mono.fromCallable(() -> {
            try {
                Senders.syncWait(Senders.just(1));
                return (Throwable) new AssertionError("syncWait returned on " + Thread.currentThread().getName());
            } catch (Throwable t) {
                return t;
            }
        }).subscribeOn(scheduler).block(Duration.ofSeconds(10));
    }

    @Test
    @DisplayName("syncWait inside Schedulers.parallel() throws IllegalStateException naming the thread")
    void syncWaitOnParallel_throws() {
        Throwable t = syncWaitOn(Schedulers.parallel());
        assertTrue(t instanceof IllegalStateException, () -> "thrown: " + t);
        assertTrue(t.getMessage().contains("not supported in thread parallel-"), t.getMessage());
    }

    @Test
    @DisplayName("syncWait inside Schedulers.single() throws too; boundedElastic() may block")
    void singleThrows_boundedElasticBlocks() {
        assertTrue(syncWaitOn(Schedulers.single()) instanceof IllegalStateException);
        Throwable elastic = syncWaitOn(Schedulers.boundedElastic());
        assertTrue(elastic instanceof AssertionError && elastic.getMessage().startsWith("syncWait returned on boundedElastic-"),
                elastic::toString);
    }

    @Test
    @DisplayName("the check agrees with Reactor's own: Hooks.isNonBlockingThread vs Schedulers.isInNonBlockingThread")
    void agreesWithReactor() {
        Boolean[] both = Mono.fromCallable(() -> new Boolean[] {
            Hooks.isNonBlockingThread(Thread.currentThread()), Schedulers.isInNonBlockingThread()})
                .subscribeOn(Schedulers.parallel()).block(Duration.ofSeconds(10));
        assertEquals(both[1], both[0]);
        assertTrue(both[0]);
        assertFalse(Hooks.isNonBlockingThread(Thread.currentThread()));
    }
}
