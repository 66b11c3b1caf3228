package dev.senders.scope;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.Hooks;
import dev.senders.Sender;
import dev.senders.Senders;
import dev.senders.internal.SharedTimer;
import dev.senders.testkit.ManualSender;
import dev.senders.testkit.TestReceiver;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("Operating a scope: names, the dump of outstanding work, refusals")
class OutstandingWorkTest {

    @AfterEach
    void reset() {
        Hooks.disableDebugCapture();
        Hooks.resetOnErrorDropped();
    }

    private static List<String> names(List<OutstandingWork> work) {
        return work.stream().map(w -> w.name().orElse("(unnamed)")).collect(Collectors.toList());
    }

    @Test
    @DisplayName("a scope has the name it was given, or a generated one, in name() and toString()")
    void scopeNames_givenOrGenerated() {
        assertEquals("orders", new CountingScope("orders").name());
        assertEquals("orders[UNUSED, count=0]", new CountingScope("orders", e -> { }).toString());
        assertEquals("jobs", new SimpleCountingScope("jobs").name());
        assertTrue(new CountingScope().name().startsWith("CountingScope@"));
        assertTrue(new SimpleCountingScope(e -> { }).name().startsWith("SimpleCountingScope@"));
    }

    @Test
    @DisplayName("named work is listed with its name, kind and age while it runs; unnamed work is only counted")
    void namedWork_listedWhileRunning() {
        CountingScope scope = new CountingScope("orders");
        ManualSender<Void> audit = new ManualSender<>();
        ManualSender<Void> anonymous = new ManualSender<>();
        Instant before = Instant.now();
        assertTrue(Scopes.spawn(Scopes.named(audit, "audit-7"), scope.getToken()));
        assertTrue(Scopes.spawn(anonymous, scope.getToken()));

        List<OutstandingWork> dump = scope.outstanding();
        assertEquals(List.of("audit-7"), names(dump));
        OutstandingWork w = dump.get(0);
        assertEquals("spawn", w.kind());
        assertEquals("orders", w.scope());
        assertFalse(w.age().isNegative());
        assertFalse(w.startedAt().isBefore(before.minusMillis(50)), () -> w.startedAt() + " vs " + before);
        assertTrue(w.spawnSite().isEmpty(), "no spawn site without debug capture");
        assertTrue(w.toString().startsWith("audit-7 (spawn, running for "), w.toString());
        assertEquals(2, scope.count(), "the unnamed one still counts");

        audit.complete(null);
        assertEquals(List.of(), scope.outstanding(), "work that finished leaves the dump");
        anonymous.complete(null);
        scope.close();
        Senders.syncWait(scope.join());
    }

    @Test
    @DisplayName("named spawnFuture and nest work is listed too, with its kind")
    void namedFutureAndNest_listed() {
        SimpleCountingScope scope = new SimpleCountingScope("s");
        ManualSender<Integer> future = new ManualSender<>();
        ManualSender<Integer> nested = new ManualSender<>();
        Sender<Integer> f = Scopes.spawnFuture(Scopes.named(future, "price"), scope.getToken());
        TestReceiver<Integer> nestReceiver = TestReceiver.start(Scopes.nest(Scopes.named(nested, "stock"), scope.getToken()));
        List<OutstandingWork> dump = scope.outstanding();
        assertEquals(List.of("price", "stock"), names(dump));
        assertEquals(List.of("spawnFuture", "nest"), dump.stream().map(OutstandingWork::kind).collect(Collectors.toList()));
        future.complete(1);
        nested.complete(2);
        assertEquals(1, Senders.syncWait(f));
        assertEquals(2, nestReceiver.value());
        assertEquals(List.of(), scope.outstanding());
    }

    @Test
    @DisplayName("with debug capture on, every piece of work is listed with the stack where it was spawned")
    void debugCapture_listsAllWorkWithSpawnSite() {
        Hooks.enableDebugCapture();
        CountingScope scope = new CountingScope("captured");
        ManualSender<Void> anonymous = new ManualSender<>();
        Scopes.spawn(anonymous, scope.getToken());
        List<OutstandingWork> dump = scope.outstanding();
        assertEquals(1, dump.size());
        OutstandingWork w = dump.get(0);
        assertTrue(w.name().isEmpty());
        assertEquals(OutstandingWorkTest.class.getName(), w.spawnSite().get(0).getClassName(), w.spawnSite()::toString);
        assertEquals("debugCapture_listsAllWorkWithSpawnSite", w.spawnSite().get(0).getMethodName());
        anonymous.complete(null);
        assertEquals(List.of(), scope.outstanding());
    }

    @Test
    @DisplayName("no dump entry outlives its work: the entry is gone before the association is released")
    void dumpEntry_goneBeforeAssociationReleased() {
        CountingScope scope = new CountingScope("ordering");
        ManualSender<Void> work = new ManualSender<>();
        Scopes.spawn(Scopes.named(work, "w"), scope.getToken());
        scope.close();
        AtomicReference<List<OutstandingWork>> seenAtJoin = new AtomicReference<>();
        TestReceiver<Void> join = TestReceiver.start(scope.join().then(v -> {
            seenAtJoin.set(scope.outstanding());
            return v;
        }));
        assertFalse(join.isDone());
        work.complete(null);
        assertTrue(join.isDone());
        assertEquals(List.of(), seenAtJoin.get(), "the join saw the dump empty when it completed");
    }

    @Test
    @DisplayName("no dump entry outlives its work: a million finished named spawns leave nothing linked behind")
    void millionFinishedSpawns_leaveNothingBehind() {
        CountingScope scope = new CountingScope("churn");
        ManualSender<Void> longRunning = new ManualSender<>();
        Scopes.spawn(Scopes.named(longRunning, "long"), scope.getToken());
        Sender<Void> quick = Scopes.named(Senders.just(), "quick");
        for (int i = 0; i < 1_000_000; i++) {
            Scopes.spawn(quick, scope.getToken());
        }
        assertEquals(List.of("long"), names(scope.outstanding()));
        assertEquals(1, scope.core().diagnostics().linkedNodes(), "only the running node stays linked");
        longRunning.complete(null);
        assertEquals(0, scope.core().diagnostics().linkedNodes());
        scope.close();
        Senders.syncWait(scope.join());
    }

    @Test
    @DisplayName("no dump entry outlives its work: finished work spawned from many threads leaves nothing linked behind")
    void concurrentChurn_leavesNothingBehind() throws Exception {
        CountingScope scope = new CountingScope("concurrent");
        Sender<Void> quick = Scopes.named(Senders.just(), "quick");
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            Thread th = new Thread(() -> {
                for (int i = 0; i < 200_000; i++) {
                    Scopes.spawn(quick, scope.getToken());
                }
            });
            threads.add(th);
            th.start();
        }
        for (Thread th : threads) {
            th.join();
        }
        // one more finish after the churn: a pass that no racing finisher can miss
        Scopes.spawn(quick, scope.getToken());
        assertEquals(List.of(), scope.outstanding());
        assertEquals(0, scope.core().diagnostics().linkedNodes());
    }

    @Test
    @DisplayName("an error of named work reaches the handler with its type unchanged and a ScopeTrace naming scope and work")
    void errorOfNamedWork_carriesScopeTrace() {
        List<Throwable> errors = new CopyOnWriteArrayList<>();
        CountingScope scope = new CountingScope("orders", errors::add);
        IllegalStateException boom = new IllegalStateException("boom");
        Scopes.spawn(Scopes.named(Senders.justError(boom), "audit-7"), scope.getToken());
        assertEquals(1, errors.size());
        assertSame(boom, errors.get(0), "the handler gets the very exception");
        ScopeTrace trace = ScopeTrace.find(boom).orElseThrow();
        assertEquals("orders", trace.scopeName());
        assertEquals("audit-7", trace.workName().orElseThrow());
        assertEquals("spawn", trace.kind().orElseThrow());
        assertEquals("work 'audit-7' (spawn) in scope 'orders'", trace.getMessage());
        assertEquals(0, trace.getStackTrace().length, "no site without capture");
    }

    @Test
    @DisplayName("an error of unnamed work names its scope; an exception shared by many failures keeps one trace")
    void errorOfUnnamedWork_namesScope_once() {
        List<Throwable> dropped = new CopyOnWriteArrayList<>();
        Hooks.setOnErrorDropped(dropped::add);
        CountingScope scope = new CountingScope("jobs");
        IllegalStateException shared = new IllegalStateException("shared");
        for (int i = 0; i < 3; i++) {
            Scopes.spawn(Senders.justError(shared), scope.getToken());
        }
        assertEquals(3, dropped.size());
        assertEquals(1, shared.getSuppressed().length, "one trace, not one per failure");
        ScopeTrace t = ScopeTrace.find(shared).orElseThrow();
        assertEquals("jobs", t.scopeName());
        assertTrue(t.workName().isEmpty());
    }

    @Test
    @DisplayName("under debug capture, an error's ScopeTrace has the spawn site as its stack trace")
    void errorUnderCapture_traceIsSpawnSite() {
        Hooks.enableDebugCapture();
        List<Throwable> errors = new CopyOnWriteArrayList<>();
        SimpleCountingScope scope = new SimpleCountingScope("s", errors::add);
        ManualSender<Void> work = new ManualSender<>();
        Scopes.spawn(work, scope.getToken());
        work.fail(new IllegalArgumentException("late"));
        ScopeTrace t = ScopeTrace.find(errors.get(0)).orElseThrow();
        assertEquals("errorUnderCapture_traceIsSpawnSite", t.getStackTrace()[0].getMethodName());
    }

    @Test
    @DisplayName("a refused spawn, spawnFuture or nest increments refusedCount()")
    void refusals_counted() {
        CountingScope scope = new CountingScope();
        assertEquals(0, scope.refusedCount());
        scope.close();
        assertFalse(Scopes.spawn(Senders.just(), scope.getToken()));
        assertThrows(java.util.concurrent.CancellationException.class,
                () -> Senders.syncWait(Scopes.spawnFuture(Senders.just(1), scope.getToken())));
        assertFalse(Scopes.nest(Senders.just(), scope.getToken()).isAssociated());
        assertEquals(3, scope.refusedCount());
    }

    @Test
    @DisplayName("a join started on an open scope waits for count zero and then closes the scope for good")
    void joinOnOpenScope_closesItWhenItCompletes() {
        SimpleCountingScope scope = new SimpleCountingScope("open-join");
        ManualSender<Void> work = new ManualSender<>();
        Scopes.spawn(work, scope.getToken());
        TestReceiver<Void> join = TestReceiver.start(scope.join());
        assertEquals(ScopeState.OPEN_AND_JOINING, scope.state());
        assertTrue(Scopes.spawn(Senders.just(), scope.getToken()), "still open while the join waits");
        work.complete(null);
        assertTrue(join.isDone());
        assertEquals(ScopeState.JOINED, scope.state());
        assertFalse(Scopes.spawn(Senders.just(), scope.getToken()), "JOINED refuses new work");
        assertEquals(1, scope.refusedCount());
    }

    @Test
    @DisplayName("a name is given to the outermost sender handed to the scope; nested names keep the outer one")
    void nestedNames_outermostWins() {
        CountingScope scope = new CountingScope();
        ManualSender<Void> work = new ManualSender<>();
        Scopes.spawn(Scopes.named(Scopes.named(work, "inner"), "outer"), scope.getToken());
        assertEquals(List.of("outer"), names(scope.outstanding()));
        work.complete(null);
        assertNull(Senders.syncWait(Scopes.named(Senders.just(), "x")), "connected outside a scope it is the sender itself");
        assertThrows(NullPointerException.class, () -> Scopes.named(Senders.just(), null));
        assertThrows(NullPointerException.class, () -> Scopes.named(null, "x"));
    }

    /** The library's clock, moved only by the test. */
    static final class StillClock implements SharedTimer.Clock {
        final AtomicLong now = new AtomicLong();

        @Override
        public ScheduledFuture<?> schedule(Runnable task, long delayNanos) {
            throw new UnsupportedOperationException("no timer in this test");
        }

        @Override
        public long nanoTime() {
            return now.get();
        }
    }

    @Test
    @DisplayName("the age of listed work is the library clock's time since its start")
    void age_grows() {
        StillClock clock = new StillClock();
        SharedTimer.replace(clock);
        try {
            CountingScope scope = new CountingScope();
            ManualSender<Void> work = new ManualSender<>();
            Scopes.spawn(Scopes.named(work, "slow"), scope.getToken());
            assertEquals(Duration.ZERO, scope.outstanding().get(0).age());
            clock.now.addAndGet(Duration.ofSeconds(3).toNanos());
            assertEquals(Duration.ofSeconds(3), scope.outstanding().get(0).age());
            work.complete(null);
        } finally {
            SharedTimer.restore(clock);
        }
    }
}
