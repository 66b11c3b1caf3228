package dev.senders.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.Env;
import dev.senders.InplaceStopSource;
import dev.senders.OperationState;
import dev.senders.ProtocolViolationException;
import dev.senders.Query;
import dev.senders.Receiver;
import dev.senders.Senders;
import dev.senders.scope.AbstractCountingScope;
import dev.senders.scope.CountingScope;
import dev.senders.scope.ScopeState;
import dev.senders.scope.Scopes;
import dev.senders.scope.SimpleCountingScope;
import dev.senders.testkit.ManualSender;
import dev.senders.testkit.TestReceiver;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code whenIdle()}: completes the next time the scope holds no work, and leaves the scope as it
 * was (open, accepting work, waitable again), on both scope types.
 */
class WhenIdleTest {

    static Stream<Supplier<AbstractCountingScope>> scopes() {
        return Stream.of(SimpleCountingScope::new, CountingScope::new);
    }

    @ParameterizedTest
    @MethodSource("scopes")
    void anIdleScope_completesTheWaitAtOnce_onTheStartingThread(Supplier<AbstractCountingScope> kind) {
        AbstractCountingScope scope = kind.get();
        TestReceiver<Void> r = TestReceiver.start(scope.whenIdle());
        r.assertValue(null);
        assertSame(Thread.currentThread(), r.thread());
        assertEquals(ScopeState.UNUSED, scope.state(), "waiting for idle changes nothing");
    }

    @ParameterizedTest
    @MethodSource("scopes")
    void theWaitCompletesOnceOutstandingWorkDrains_andTheScopeThenAcceptsNewWork(Supplier<AbstractCountingScope> kind) {
        AbstractCountingScope scope = kind.get();
        ManualSender<Integer> a = new ManualSender<>();
        ManualSender<Integer> b = new ManualSender<>();
        assertTrue(Scopes.spawn(a, scope.getToken()));
        assertTrue(Scopes.spawn(b, scope.getToken()));
        TestReceiver<Void> idle = TestReceiver.start(scope.whenIdle());
        a.complete(1);
        idle.assertNotCompleted();
        b.complete(2);
        idle.assertValue(null);
        assertEquals(ScopeState.OPEN, scope.state(), "the scope stays open");

        ManualSender<Integer> c = new ManualSender<>();
        assertTrue(Scopes.spawn(c, scope.getToken()), "an idle scope keeps accepting work");
        TestReceiver<Void> again = TestReceiver.start(scope.whenIdle());
        again.assertNotCompleted();
        c.complete(3);
        again.assertValue(null);

        scope.close();
        Senders.syncWait(scope.join());
        assertEquals(ScopeState.JOINED, scope.state());
        TestReceiver.start(scope.whenIdle()).assertValue(null); // a joined scope is idle
    }

    @ParameterizedTest
    @MethodSource("scopes")
    void workSpawnedAfterTheZero_doesNotHoldBackAWaitThatStartedBeforeIt(Supplier<AbstractCountingScope> kind) {
        AbstractCountingScope scope = kind.get();
        ManualSender<Integer> a = new ManualSender<>();
        Scopes.spawn(a, scope.getToken());
        TestReceiver<Void> idle = TestReceiver.start(scope.whenIdle());
        ManualSender<Integer> later = new ManualSender<>();
        // a's completion brings the count to zero; the next spawn comes after that moment
        a.complete(1);
        Scopes.spawn(later, scope.getToken());
        idle.assertValue(null);
        TestReceiver<Void> next = TestReceiver.start(scope.whenIdle());
        next.assertNotCompleted();
        later.complete(2);
        next.assertValue(null);
    }

    @ParameterizedTest
    @MethodSource("scopes")
    void manyWaitersOfOneEpoch_allComplete_andWaitersOfTheNextWaitForTheNextZero(Supplier<AbstractCountingScope> kind) {
        AbstractCountingScope scope = kind.get();
        ManualSender<Integer> a = new ManualSender<>();
        Scopes.spawn(a, scope.getToken());
        java.util.List<TestReceiver<Void>> first = newWaiters(scope, 5);
        a.complete(1);
        for (TestReceiver<Void> w : first) {
            w.assertValue(null);
        }
        ManualSender<Integer> b = new ManualSender<>();
        Scopes.spawn(b, scope.getToken());
        java.util.List<TestReceiver<Void>> second = newWaiters(scope, 3);
        for (TestReceiver<Void> w : second) {
            w.assertNotCompleted();
        }
        b.complete(2);
        for (TestReceiver<Void> w : second) {
            w.assertValue(null);
        }
    }

    private static java.util.List<TestReceiver<Void>> newWaiters(AbstractCountingScope scope, int n) {
        java.util.List<TestReceiver<Void>> ws = new java.util.ArrayList<>();
        for (int i = 0; i < n; i++) {
            ws.add(TestReceiver.start(scope.whenIdle()));
        }
        return ws;
    }

    @ParameterizedTest
    @MethodSource("scopes")
    void aClosedScopeWithWork_isIdleWhenTheWorkEnds_andAJoinStillEndsIt(Supplier<AbstractCountingScope> kind) {
        AbstractCountingScope scope = kind.get();
        ManualSender<Integer> a = new ManualSender<>();
        Scopes.spawn(a, scope.getToken());
        scope.close();
        TestReceiver<Void> idle = TestReceiver.start(scope.whenIdle());
        TestReceiver<Void> join = TestReceiver.start(scope.join());
        a.complete(1);
        idle.assertValue(null);
        join.assertValue(null);
        assertEquals(ScopeState.JOINED, scope.state());
    }

    @ParameterizedTest
    @MethodSource("scopes")
    void aStoppedWait_completesStoppedAtOnce_andLeavesTheScopeAndItsWorkAlone(Supplier<AbstractCountingScope> kind) {
        AbstractCountingScope scope = kind.get();
        ManualSender<Integer> a = new ManualSender<>();
        Scopes.spawn(a, scope.getToken());
        TestReceiver<Void> idle = TestReceiver.withStopSource();
        scope.whenIdle().connect(idle).start();
        idle.assertNotCompleted();
        idle.requestStop();
        idle.assertStopped();
        assertEquals(1, scope.count());
        a.complete(1);
        assertEquals(1, idle.completions(), "the zero does not complete a stopped wait again");
        assertEquals(ScopeState.OPEN, scope.state());
    }

    @ParameterizedTest
    @MethodSource("scopes")
    void aWaitWhoseStopWasRequestedBeforeStart_completesStoppedWithoutTouchingTheScope(Supplier<AbstractCountingScope> kind) {
        AbstractCountingScope scope = kind.get();
        ManualSender<Integer> a = new ManualSender<>();
        Scopes.spawn(a, scope.getToken());
        TestReceiver<Void> idle = TestReceiver.withStopSource();
        idle.requestStop();
        scope.whenIdle().connect(idle).start();
        idle.assertStopped();
        a.complete(1);
        assertEquals(1, idle.completions());
    }

    @ParameterizedTest
    @MethodSource("scopes")
    void aWaitStartedTwice_throws_andCompletesItsReceiverOnce(Supplier<AbstractCountingScope> kind) {
        AbstractCountingScope scope = kind.get();
        ManualSender<Integer> a = new ManualSender<>();
        Scopes.spawn(a, scope.getToken());
        TestReceiver<Void> r = new TestReceiver<>();
        OperationState op = scope.whenIdle().connect(r);
        op.start();
        assertThrows(ProtocolViolationException.class, op::start);
        a.complete(1);
        assertEquals(1, r.completions());
    }

    @ParameterizedTest
    @MethodSource("scopes")
    void aWaitThatWaited_completesOnItsReceiversScheduler(Supplier<AbstractCountingScope> kind) throws Exception {
        AbstractCountingScope scope = kind.get();
        ManualSender<Integer> a = new ManualSender<>();
        Scopes.spawn(a, scope.getToken());
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newSingleThreadExecutor(
                task -> new Thread(task, "idle-scheduler"));
        try {
            TestReceiver<Void> r = new TestReceiver<>(Env.of(Query.SCHEDULER, dev.senders.Schedulers.fromExecutor(pool)));
            scope.whenIdle().connect(r).start();
            a.complete(1);
            r.await();
            r.assertValue(null);
            assertEquals("idle-scheduler", r.thread().getName());
        } finally {
            pool.shutdown();
        }
    }

    @ParameterizedTest
    @MethodSource("scopes")
    void oneHundredThousandAbandonedWaits_retainAlmostNothing(Supplier<AbstractCountingScope> kind) throws Exception {
        AbstractCountingScope scope = kind.get();
        ManualSender<Integer> work = new ManualSender<>();
        Scopes.spawn(work, scope.getToken());
        int n = 100_000;
        long before = AbandonedJoinTest.usedAfterGc();
        for (int i = 0; i < n; i++) {
            InplaceStopSource stop = new InplaceStopSource();
            Receiver<Void> r = new AbandonedJoinTest.TestReceiverLite(Env.of(Query.STOP_TOKEN, stop.token()));
            scope.whenIdle().connect(r).start();
            stop.requestStop();
        }
        long retained = AbandonedJoinTest.usedAfterGc() - before;
        assertTrue(retained < 2L * 1024 * 1024,
                "100,000 stopped idle waits retain " + retained + " bytes (a waiter left linked costs over 20 B each)");
        work.complete(1);
        TestReceiver.start(scope.whenIdle()).assertValue(null);
    }
}
