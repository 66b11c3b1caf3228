package dev.senders.scope;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.Env;
import dev.senders.Query;
import dev.senders.Scheduler;
import dev.senders.Schedulers;
import dev.senders.Senders;
import dev.senders.testkit.TestReceiver;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

@DisplayName("P3149R6 [exec.simple.counting] simple_counting_scope state machine")
class SimpleCountingScopeTest {

    private static final ExecutorService POOL = Executors.newFixedThreadPool(2);

    @AfterAll
    static void shutdown() {
        POOL.shutdownNow();
    }

    /** A scope driven into {@code s}; for the joining states one association is outstanding. */
    static final class Fixture {
        final SimpleCountingScope scope = new SimpleCountingScope();
        final List<TestReceiver<Void>> joins = new ArrayList<>();
        boolean associated;

        Fixture(ScopeState s) {
            AsyncScopeToken t = scope.getToken();
            switch (s) {
                case UNUSED:
                    break;
                case OPEN:
                    associate();
                    break;
                case CLOSED:
                    associate();
                    scope.close();
                    break;
                case OPEN_AND_JOINING:
                    associate();
                    startJoin();
                    break;
                case CLOSED_AND_JOINING:
                    associate();
                    startJoin();
                    scope.close();
                    break;
                case UNUSED_AND_CLOSED:
                    scope.close();
                    break;
                case JOINED:
                    startJoin();
                    break;
                default:
                    throw new AssertionError(s);
            }
            assertEquals(s, scope.state());
            assertEquals(associated ? 1 : 0, scope.count());
            if (t == null) {
                throw new AssertionError();
            }
        }

        void associate() {
            assertTrue(scope.getToken().tryAssociate());
            associated = true;
        }

        TestReceiver<Void> startJoin() {
            TestReceiver<Void> r = new TestReceiver<>();
            scope.join().connect(r).start();
            joins.add(r);
            return r;
        }

        void finish() {
            if (associated) {
                associated = false;
                scope.getToken().dissociate();
            }
            if (scope.state() != ScopeState.JOINED && !scope.state().isSafeToDrop()) {
                startJoin();
            }
            assertTrue(scope.state().isSafeToDrop(), () -> "left in " + scope.state());
        }
    }

    @Test
    @DisplayName("[exec.simple.counting.ctor] a new scope is unused with count 0")
    void ctor_unusedWithCountZero() {
        SimpleCountingScope s = new SimpleCountingScope();
        assertEquals(ScopeState.UNUSED, s.state());
        assertEquals(0, s.count());
        assertSame(s.getToken(), s.getToken());
    }

    private static final Map<ScopeState, ScopeState> AFTER_TRY_ASSOCIATE = new EnumMap<>(Map.of(
            ScopeState.UNUSED, ScopeState.OPEN,
            ScopeState.OPEN, ScopeState.OPEN,
            ScopeState.OPEN_AND_JOINING, ScopeState.OPEN_AND_JOINING));

    @ParameterizedTest(name = "try_associate in {0}")
    @EnumSource(ScopeState.class)
    @DisplayName("try_associate succeeds exactly in unused, open, open-and-joining and increments the count")
    void tryAssociate_inEachState(ScopeState s) {
        Fixture f = new Fixture(s);
        long before = f.scope.count();
        boolean ok = f.scope.getToken().tryAssociate();
        assertEquals(s.isOpen(), ok);
        if (ok) {
            assertEquals(before + 1, f.scope.count());
            assertEquals(AFTER_TRY_ASSOCIATE.get(s), f.scope.state());
            f.scope.getToken().dissociate();
        } else {
            assertEquals(before, f.scope.count());
            assertEquals(s, f.scope.state(), "a failed try_associate changes nothing");
        }
        f.finish();
    }

    private static final Map<ScopeState, ScopeState> AFTER_CLOSE = new EnumMap<>(Map.of(
            ScopeState.UNUSED, ScopeState.UNUSED_AND_CLOSED,
            ScopeState.OPEN, ScopeState.CLOSED,
            ScopeState.CLOSED, ScopeState.CLOSED,
            ScopeState.OPEN_AND_JOINING, ScopeState.CLOSED_AND_JOINING,
            ScopeState.CLOSED_AND_JOINING, ScopeState.CLOSED_AND_JOINING,
            ScopeState.UNUSED_AND_CLOSED, ScopeState.UNUSED_AND_CLOSED,
            ScopeState.JOINED, ScopeState.JOINED));

    @ParameterizedTest(name = "close in {0}")
    @EnumSource(ScopeState.class)
    @DisplayName("[exec.simple.counting.close] close moves to closed/unused-and-closed/closed-and-joining; idempotent")
    void close_inEachState(ScopeState s) {
        Fixture f = new Fixture(s);
        f.scope.close();
        assertEquals(AFTER_CLOSE.get(s), f.scope.state());
        assertFalse(f.scope.getToken().tryAssociate(), "after close, try_associate returns false");
        f.finish();
    }

    @ParameterizedTest(name = "join in {0}")
    @EnumSource(ScopeState.class)
    @DisplayName("[exec.simple.counting.join] starting a join: waits while count > 0, else joins at once")
    void join_inEachState(ScopeState s) {
        Fixture f = new Fixture(s);
        TestReceiver<Void> j = new TestReceiver<>();
        var op = f.scope.join().connect(j);
        assertEquals(s, f.scope.state(), "connecting a join-sender does not change the state");
        op.start();
        if (f.associated) {
            assertFalse(j.isDone(), "join waits for the outstanding association");
            ScopeState expected = s == ScopeState.OPEN || s == ScopeState.OPEN_AND_JOINING
                    ? ScopeState.OPEN_AND_JOINING : ScopeState.CLOSED_AND_JOINING;
            assertEquals(expected, f.scope.state());
            f.scope.getToken().dissociate();
            f.associated = false;
        }
        assertTrue(j.isDone());
        assertEquals(TestReceiver.Kind.VALUE, j.kind());
        assertEquals(ScopeState.JOINED, f.scope.state());
        for (TestReceiver<Void> other : f.joins) {
            assertEquals(TestReceiver.Kind.VALUE, other.kind());
            assertEquals(1, other.completions());
        }
    }

    @Test
    @DisplayName("joining twice: a join started on a joined scope completes at once with a value")
    void joinTwice_secondCompletesAtOnce() {
        SimpleCountingScope s = new SimpleCountingScope();
        assertTrue(s.getToken().tryAssociate());
        TestReceiver<Void> j1 = new TestReceiver<>();
        TestReceiver<Void> j2 = new TestReceiver<>();
        s.join().connect(j1).start();
        s.join().connect(j2).start();
        assertFalse(j1.isDone());
        assertFalse(j2.isDone());
        s.getToken().dissociate();
        assertTrue(j1.isDone() && j2.isDone());
        TestReceiver<Void> j3 = new TestReceiver<>();
        s.join().connect(j3).start();
        assertEquals(TestReceiver.Kind.VALUE, j3.kind());
        assertSame(Thread.currentThread(), j3.thread());
        assertFalse(s.getToken().tryAssociate(), "joined is closed to new work");
    }

    @Test
    @DisplayName("stdexec fix: a join started on an open scope whose count is zero completes at once")
    void join_openScopeWithZeroCount_completesAtOnce() {
        SimpleCountingScope s = new SimpleCountingScope();
        assertTrue(s.getToken().tryAssociate());
        s.getToken().dissociate();
        assertEquals(ScopeState.OPEN, s.state());
        assertEquals(0, s.count());
        Senders.syncWait(s.join());
        assertEquals(ScopeState.JOINED, s.state());
    }

    @ParameterizedTest(name = "dissociate without association in {0}")
    @EnumSource(value = ScopeState.class, names = {"UNUSED", "UNUSED_AND_CLOSED", "JOINED"})
    @DisplayName("forbidden: dissociate without a matching try_associate throws IllegalStateException")
    void dissociate_withoutAssociation_throws(ScopeState s) {
        Fixture f = new Fixture(s);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> f.scope.getToken().dissociate());
        assertTrue(e.getMessage().contains("dissociate() without a matching"), e.getMessage());
        assertEquals(s, f.scope.state());
    }

    @Test
    @DisplayName("join completes inline on the dissociating thread when its receiver has no scheduler")
    void join_withoutScheduler_completesOnDissociatingThread() throws Exception {
        SimpleCountingScope s = new SimpleCountingScope();
        assertTrue(s.getToken().tryAssociate());
        TestReceiver<Void> j = new TestReceiver<>();
        s.join().connect(j).start();
        Thread t = new Thread(() -> s.getToken().dissociate(), "dissociator");
        t.start();
        t.join();
        j.await();
        assertSame(t, j.thread());
    }

    @Test
    @DisplayName("[exec.simple.counting.join] a waiting join completes on its receiver's scheduler")
    void join_completesOnReceiversScheduler() throws Exception {
        ExecutorService single = Executors.newSingleThreadExecutor(r -> new Thread(r, "join-scheduler"));
        try {
            Scheduler sch = Schedulers.fromExecutor(single);
            SimpleCountingScope s = new SimpleCountingScope();
            assertTrue(s.getToken().tryAssociate());
            TestReceiver<Void> j = new TestReceiver<>(Env.of(Query.SCHEDULER, sch));
            s.join().connect(j).start();
            s.getToken().dissociate();
            j.await();
            assertEquals("join-scheduler", j.thread().getName());
            assertNotSame(Thread.currentThread(), j.thread());
        } finally {
            single.shutdownNow();
        }
    }

    @Test
    @DisplayName("100 concurrent joins all complete once the count reaches zero (race, looped)")
    void hundredConcurrentJoins() throws Exception {
        for (int round = 0; round < 50; round++) {
            SimpleCountingScope s = new SimpleCountingScope();
            assertTrue(s.getToken().tryAssociate());
            List<TestReceiver<Void>> joins = new ArrayList<>();
            CountDownLatch go = new CountDownLatch(1);
            CountDownLatch started = new CountDownLatch(100);
            for (int i = 0; i < 100; i++) {
                TestReceiver<Void> r = new TestReceiver<>();
                joins.add(r);
                POOL.execute(() -> {
                    try {
                        go.await();
                    } catch (InterruptedException e) {
                        return;
                    }
                    s.join().connect(r).start();
                    started.countDown();
                });
            }
            go.countDown();
            if (round % 2 == 0) {
                assertTrue(started.await(10, TimeUnit.SECONDS));
            }
            s.getToken().dissociate();
            for (TestReceiver<Void> r : joins) {
                r.await();
                assertEquals(TestReceiver.Kind.VALUE, r.kind());
                assertEquals(1, r.completions());
            }
            assertEquals(ScopeState.JOINED, s.state());
        }
    }

    @Test
    @DisplayName("race: associate/dissociate on two threads vs join; join completes only at count zero")
    void race_associateDissociateVsJoin() throws Exception {
        for (int round = 0; round < 500; round++) {
            SimpleCountingScope s = new SimpleCountingScope();
            AsyncScopeToken t = s.getToken();
            assertTrue(t.tryAssociate());
            CyclicBarrier b = new CyclicBarrier(2);
            TestReceiver<Void> j = new TestReceiver<>();
            var worker = POOL.submit(() -> {
                b.await();
                int n = 0;
                while (t.tryAssociate()) {
                    assertFalse(j.isDone(), "join completed while work was associated");
                    t.dissociate();
                    if (++n == 200) {
                        break;
                    }
                }
                return null;
            });
            b.await();
            s.join().connect(j).start();
            s.close();
            t.dissociate();
            worker.get(10, TimeUnit.SECONDS);
            j.await();
            assertEquals(ScopeState.JOINED, s.state());
            assertEquals(0, s.count());
        }
    }

    @Test
    @DisplayName("null arguments are rejected")
    void nulls() {
        SimpleCountingScope s = new SimpleCountingScope();
        assertThrows(NullPointerException.class, () -> new SimpleCountingScope((java.util.function.Consumer<Throwable>) null));
        assertThrows(NullPointerException.class, () -> new SimpleCountingScope((String) null));
        assertThrows(NullPointerException.class, () -> new SimpleCountingScope("s", null));
        assertThrows(NullPointerException.class, () -> new SimpleCountingScope(null, e -> { }));
        assertThrows(IllegalArgumentException.class, () -> new SimpleCountingScope(" "));
        assertThrows(NullPointerException.class, () -> s.join().connect(null));
        assertThrows(NullPointerException.class, () -> Scopes.spawn(null, s.getToken()));
        assertThrows(NullPointerException.class, () -> Scopes.spawn(Senders.just(), null));
        assertThrows(NullPointerException.class, () -> Scopes.nest(Senders.just(), null));
        assertThrows(NullPointerException.class, () -> Scopes.spawnFuture(null, s.getToken()));
        assertThrows(NullPointerException.class, () -> Scopes.letAsyncScope(null));
    }
}
