package dev.senders.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.Senders;
import dev.senders.scope.AbstractCountingScope;
import dev.senders.scope.CountingScope;
import dev.senders.scope.RefusalReason;
import dev.senders.scope.ScopeBuilder;
import dev.senders.scope.ScopeState;
import dev.senders.scope.Scopes;
import dev.senders.scope.SimpleCountingScope;
import dev.senders.testkit.ManualSender;
import dev.senders.testkit.TestReceiver;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A scope with {@code maxOutstanding}: at the limit every path refuses as for a closed scope,
 * refusals are counted by reason, and the scope takes work again once some has ended.
 */
class ScopeLimitTest {

    static Stream<Supplier<ScopeBuilder<? extends AbstractCountingScope>>> builders() {
        return Stream.of(SimpleCountingScope::builder, CountingScope::builder);
    }

    @ParameterizedTest
    @MethodSource("builders")
    void atTheLimit_spawnReturnsFalse_andTheRefusalIsCountedAsFull(Supplier<ScopeBuilder<? extends AbstractCountingScope>> b) {
        AbstractCountingScope scope = b.get().name("bounded").maxOutstanding(2).build();
        assertEquals(2, scope.maxOutstanding());
        ManualSender<Integer> w1 = new ManualSender<>();
        ManualSender<Integer> w2 = new ManualSender<>();
        ManualSender<Integer> w3 = new ManualSender<>();
        assertTrue(Scopes.spawn(w1, scope.getToken()));
        assertTrue(Scopes.spawn(w2, scope.getToken()));
        assertFalse(Scopes.spawn(w3, scope.getToken()), "a full scope refuses the third operation");
        assertEquals(0, w3.connects(), "refused work is never connected");
        assertEquals(2, scope.count());
        assertEquals(1, scope.refusedCount(RefusalReason.FULL));
        assertEquals(0, scope.refusedCount(RefusalReason.CLOSED));
        assertEquals(1, scope.refusedCount());

        w1.complete(1);
        assertTrue(Scopes.spawn(w3, scope.getToken()), "a slot freed by finished work is taken again");
        w2.complete(2);
        w3.complete(3);
        scope.close();
        assertFalse(Scopes.spawn(new ManualSender<Integer>(), scope.getToken()));
        assertEquals(1, scope.refusedCount(RefusalReason.CLOSED));
        assertEquals(2, scope.refusedCount());
        Senders.syncWait(scope.join());
        assertEquals(ScopeState.JOINED, scope.state());
    }

    @ParameterizedTest
    @MethodSource("builders")
    void atTheLimit_nestAndSpawnFutureCompleteStopped_andTryAssociateFails(Supplier<ScopeBuilder<? extends AbstractCountingScope>> b) {
        AbstractCountingScope scope = b.get().maxOutstanding(1).build();
        ManualSender<Integer> held = new ManualSender<>();
        assertTrue(Scopes.spawn(held, scope.getToken()));
        assertFalse(scope.getToken().tryAssociate());
        TestReceiver.start(Scopes.nest(Senders.just(1), scope.getToken())).assertStopped();
        TestReceiver.start(Scopes.spawnFuture(Senders.just(1), scope.getToken())).assertStopped();
        assertEquals(3, scope.refusedCount(RefusalReason.FULL));
        assertEquals(1, scope.count(), "refused associations leave no trace in the count");
        held.complete(0);
        assertEquals(0, scope.count());
        TestReceiver.start(Scopes.nest(Senders.just(7), scope.getToken())).assertValue(7);
    }

    @ParameterizedTest
    @MethodSource("builders")
    void raisingTheLimitAtRunTime_admitsMore_andLoweringItRefusesUntilTheCountIsBelow(
            Supplier<ScopeBuilder<? extends AbstractCountingScope>> b) {
        AbstractCountingScope scope = b.get().maxOutstanding(1).build();
        List<ManualSender<Integer>> work = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            work.add(new ManualSender<>());
        }
        assertTrue(Scopes.spawn(work.get(0), scope.getToken()));
        assertFalse(Scopes.spawn(work.get(1), scope.getToken()));
        scope.setMaxOutstanding(3);
        assertTrue(Scopes.spawn(work.get(1), scope.getToken()));
        assertTrue(Scopes.spawn(work.get(2), scope.getToken()));
        scope.setMaxOutstanding(1);
        assertEquals(3, scope.count(), "lowering the limit touches no outstanding work");
        work.get(0).complete(0);
        assertFalse(Scopes.spawn(new ManualSender<Integer>(), scope.getToken()), "2 outstanding, limit 1");
        work.get(1).complete(1);
        assertFalse(Scopes.spawn(new ManualSender<Integer>(), scope.getToken()), "1 outstanding, limit 1");
        work.get(2).complete(2);
        assertTrue(Scopes.spawn(Senders.just(1), scope.getToken()));
        scope.setMaxOutstanding(Long.MAX_VALUE);
        assertEquals(Long.MAX_VALUE, scope.maxOutstanding());
    }

    @Test
    void aScopeWithoutALimit_reportsLongMaxValue() {
        assertEquals(Long.MAX_VALUE, new CountingScope().maxOutstanding());
        assertEquals(Long.MAX_VALUE, SimpleCountingScope.builder().build().maxOutstanding());
    }

    @Test
    void aLimitBelowOne_isRejectedWithAMessageThatSaysWhatToDo() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> CountingScope.builder().maxOutstanding(0));
        assertTrue(e.getMessage().contains("at least 1") && e.getMessage().contains("Long.MAX_VALUE"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new SimpleCountingScope().setMaxOutstanding(-5));
        assertThrows(IllegalArgumentException.class, () -> CountingScope.builder().name(" "));
        assertThrows(NullPointerException.class, () -> CountingScope.builder().errorHandler(null));
        assertThrows(NullPointerException.class, () -> new CountingScope().refusedCount(null));
    }

    @Test
    void theBuilderSetsNameAndErrorHandler() {
        List<Throwable> errors = new CopyOnWriteArrayList<>();
        CountingScope scope = CountingScope.builder().name("audits").errorHandler(errors::add).build();
        assertEquals("audits", scope.name());
        IllegalStateException boom = new IllegalStateException("boom");
        assertTrue(Scopes.spawn(Senders.justError(boom), scope.getToken()));
        assertEquals(List.of(boom), errors);
        assertEquals(1, scope.errorCount());
    }

    @Test
    void aStopRequestReachesWorkOfABoundedCountingScope() {
        CountingScope scope = CountingScope.builder().maxOutstanding(4).build();
        ManualSender<Integer> w = new ManualSender<>(true);
        assertTrue(Scopes.spawn(w, scope.getToken()));
        scope.requestStop();
        assertEquals(0, scope.count());
    }

    @Test
    void racingSpawnsNeverExceedTheLimit() throws Exception {
        int limit = 8;
        CountingScope scope = CountingScope.builder().maxOutstanding(limit).build();
        java.util.concurrent.atomic.AtomicLong maxSeen = new java.util.concurrent.atomic.AtomicLong();
        java.util.concurrent.atomic.AtomicLong running = new java.util.concurrent.atomic.AtomicLong();
        Thread[] threads = new Thread[4];
        for (int t = 0; t < threads.length; t++) {
            threads[t] = new Thread(() -> {
                for (int i = 0; i < 20_000; i++) {
                    Scopes.spawn(dev.senders.Senders.just(0).then(v -> {
                        long now = running.incrementAndGet();
                        maxSeen.accumulateAndGet(now, Math::max);
                        Thread.onSpinWait();
                        running.decrementAndGet();
                        return v;
                    }), scope.getToken());
                }
            });
            threads[t].start();
        }
        for (Thread t : threads) {
            t.join();
        }
        assertTrue(maxSeen.get() <= limit, "at most " + limit + " ran at once, saw " + maxSeen.get());
        scope.close();
        Senders.syncWait(scope.join());
    }
}
