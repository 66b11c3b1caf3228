package dev.senders.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.Env;
import dev.senders.InplaceStopSource;
import dev.senders.OperationState;
import dev.senders.ProtocolViolationException;
import dev.senders.Query;
import dev.senders.Receiver;
import dev.senders.Senders;
import dev.senders.scope.CountingScope;
import dev.senders.scope.ScopeState;
import dev.senders.scope.Scopes;
import dev.senders.scope.SimpleCountingScope;
import dev.senders.testkit.ManualSender;
import dev.senders.testkit.TestReceiver;
import java.lang.ref.WeakReference;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A caller that gives up on a {@code join()} (stops its operation) gets {@code setStopped()} at
 * once, as any P2300 sender's operation, and the scope forgets that waiter: abandoned joins are
 * not retained until the scope finally joins. Stopping a join does not stop the scope's work.
 */
class AbandonedJoinTest {

    /** A receiver with its own stop source and a payload, as an abandoning caller would have. */
    static final class GivingUp implements Receiver<Void> {
        final InplaceStopSource stop = new InplaceStopSource();
        final Env env = Env.of(Query.STOP_TOKEN, stop.token());
        final byte[] payload;
        volatile String outcome;

        GivingUp(int payloadBytes) {
            this.payload = new byte[payloadBytes];
        }

        @Override
        public void setValue(Void v) {
            outcome = "value";
        }

        @Override
        public void setError(Throwable e) {
            outcome = "error " + e;
        }

        @Override
        public void setStopped() {
            outcome = "stopped";
        }

        @Override
        public Env env() {
            return env;
        }
    }

    @Test
    void aCallerThatStopsItsJoin_getsStoppedAtOnce_whileTheWorkAndTheScopeGoOn() throws Exception {
        CountingScope scope = new CountingScope();
        ManualSender<Integer> work = new ManualSender<>(true);
        Scopes.spawn(work, scope.getToken());
        GivingUp caller = new GivingUp(0);
        scope.join().connect(caller).start();
        assertEquals(null, caller.outcome, "waits while work is associated");
        assertEquals(ScopeState.OPEN_AND_JOINING, scope.state());

        caller.stop.requestStop();
        assertEquals("stopped", caller.outcome, "completes stopped on the stopping thread");
        assertEquals(1, scope.count(), "stopping a join does not stop the scope's work");
        assertEquals(0, work.stopsSeen());

        TestReceiver<Void> patient = new TestReceiver<>();
        scope.join().connect(patient).start();
        patient.assertNotCompleted();
        work.complete(1);
        patient.await().assertValue(null);
        assertEquals("stopped", caller.outcome, "the stopped join is not completed again");
        assertEquals(ScopeState.JOINED, scope.state());
    }

    @Test
    void aJoinWhoseStopWasRequestedBeforeStart_completesStoppedAndLeavesTheScopeAsItWas() {
        SimpleCountingScope scope = new SimpleCountingScope();
        ManualSender<Integer> work = new ManualSender<>();
        Scopes.spawn(work, scope.getToken());
        GivingUp caller = new GivingUp(0);
        caller.stop.requestStop();
        scope.join().connect(caller).start();
        assertEquals("stopped", caller.outcome);
        assertEquals(ScopeState.OPEN, scope.state());
        work.complete(1);
        scope.close();
        Senders.syncWait(scope.join());
    }

    @Test
    void aJoinOfAnIdleScopeCompletesWithAValueEvenIfItsTokenCanStop() {
        SimpleCountingScope scope = new SimpleCountingScope();
        GivingUp caller = new GivingUp(0);
        scope.join().connect(caller).start();
        assertEquals("value", caller.outcome);
        caller.stop.requestStop(); // too late: changes nothing
        assertEquals("value", caller.outcome);
    }

    static WeakReference<GivingUp> abandonOne(SimpleCountingScope scope) {
        GivingUp caller = new GivingUp(256 * 1024);
        scope.join().connect(caller).start();
        caller.stop.requestStop();
        assertEquals("stopped", caller.outcome);
        return new WeakReference<>(caller);
    }

    @Test
    void anAbandonedJoinIsNotRetainedByTheScope() throws Exception {
        SimpleCountingScope scope = new SimpleCountingScope();
        ManualSender<Integer> work = new ManualSender<>();
        Scopes.spawn(work, scope.getToken());
        WeakReference<GivingUp> gone = abandonOne(scope);
        assertTrue(ScopeRetentionTest.awaitWithGc(() -> gone.get() == null),
                "the scope still references a join its caller stopped");
        work.complete(1);
        scope.close();
        Senders.syncWait(scope.join());
    }

    @Test
    void twoHundredThousandAbandonedJoins_retainAlmostNothingUntilTheScopeJoins() throws Exception {
        SimpleCountingScope scope = new SimpleCountingScope();
        ManualSender<Integer> work = new ManualSender<>();
        Scopes.spawn(work, scope.getToken());
        int n = 200_000;
        long before = usedAfterGc();
        for (int i = 0; i < n; i++) {
            InplaceStopSource stop = new InplaceStopSource();
            TestReceiverLite r = new TestReceiverLite(Env.of(Query.STOP_TOKEN, stop.token()));
            OperationState op = scope.join().connect(r);
            op.start();
            stop.requestStop();
        }
        long retained = usedAfterGc() - before;
        System.out.printf("abandoned joins: %,d stopped waits retain %,d bytes while the scope waits (%.1f B each)%n",
                n, retained, retained / (double) n);
        assertTrue(retained < 4L * 1024 * 1024,
                "200,000 abandoned joins retain " + retained + " bytes (a waiter that stays linked costs over 100 B each)");
        work.complete(1);
        scope.close();
        Senders.syncWait(scope.join());
        assertEquals(ScopeState.JOINED, scope.state());
    }

    /** The smallest stoppable receiver: nothing but its env. */
    static final class TestReceiverLite implements Receiver<Void> {
        final Env env;

        TestReceiverLite(Env env) {
            this.env = env;
        }

        @Override
        public void setValue(Void v) {}

        @Override
        public void setError(Throwable e) {}

        @Override
        public void setStopped() {}

        @Override
        public Env env() {
            return env;
        }
    }

    static long usedAfterGc() throws InterruptedException {
        Runtime rt = Runtime.getRuntime();   // java.base only: the tests run inside dev.senders.core
        long best = Long.MAX_VALUE;
        for (int i = 0; i < 5; i++) {
            System.gc();
            TimeUnit.MILLISECONDS.sleep(30);
            best = Math.min(best, rt.totalMemory() - rt.freeMemory());
        }
        return best;
    }

    @Test
    void aJoinOperationStartedTwice_throwsAndCompletesItsReceiverOnce() {
        SimpleCountingScope scope = new SimpleCountingScope();
        ManualSender<Integer> work = new ManualSender<>();
        Scopes.spawn(work, scope.getToken());
        TestReceiver<Void> r = new TestReceiver<>();
        OperationState op = scope.join().connect(r);
        op.start();
        IllegalStateException e = assertThrows(IllegalStateException.class, op::start);
        assertInstanceOf(ProtocolViolationException.class, e);
        assertTrue(e.getMessage().contains("start() was called twice"), e.getMessage());
        work.complete(1);
        r.await().assertValue(null);
        assertEquals(1, r.completions());
    }

    @Test
    void aJoinedScopesJoinOperationStartedTwice_throwsAndCompletesItsReceiverOnce() {
        SimpleCountingScope scope = new SimpleCountingScope();
        TestReceiver<Void> r = new TestReceiver<>();
        OperationState op = scope.join().connect(r);
        op.start();
        assertThrows(IllegalStateException.class, op::start);
        assertEquals(1, r.completions());
    }
}
