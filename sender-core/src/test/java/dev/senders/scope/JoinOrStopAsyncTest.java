package dev.senders.scope;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.OperationState;
import dev.senders.ProtocolViolationException;
import dev.senders.Receiver;
import dev.senders.Sender;
import dev.senders.Senders;
import dev.senders.internal.SharedTimer;
import dev.senders.testkit.ManualSender;
import dev.senders.testkit.TestReceiver;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("Scopes.joinOrStopAsync: the shutdown sequence as a sender, with bounded reports")
class JoinOrStopAsyncTest {

    /** Work that records the thread its stop request ran on, then completes stopped. */
    static final class StopThreadProbe implements Sender<Void> {
        final AtomicReference<Thread> stoppedOn = new AtomicReference<>();

        @Override
        public OperationState connect(Receiver<? super Void> r) {
            return () -> r.env().stopToken().onStop(() -> {
                stoppedOn.set(Thread.currentThread());
                r.setStopped();
            });
        }
    }

    @Test
    @DisplayName("work that ends within the grace: the report is delivered on the thread that ended it, outcome JOINED")
    void joinsWithinGrace_withoutBlockingTheStarter() throws Exception {
        CountingScope scope = new CountingScope("async-quick");
        ManualSender<Void> work = new ManualSender<>();
        int timerTasksBefore = SharedTimer.pendingTasks();
        Scopes.spawn(work, scope.getToken());
        TestReceiver<ShutdownReport> r = TestReceiver.start(
                Scopes.joinOrStopAsync(scope, Duration.ofSeconds(30), Duration.ofSeconds(30)));
        assertFalse(r.isDone(), "start returns while the work runs");
        assertEquals(ScopeState.CLOSED_AND_JOINING, scope.state());
        work.complete(null);
        assertTrue(r.await(5, TimeUnit.SECONDS));
        ShutdownReport report = r.value();
        assertEquals(ShutdownReport.Outcome.JOINED, report.outcome());
        assertEquals(Thread.currentThread(), r.thread());
        assertEquals(timerTasksBefore, SharedTimer.pendingTasks(), "the grace timer was cancelled");
    }

    @Test
    @DisplayName("the grace passes: stop is requested on a thread of its own (not the timer), outcome STOPPED")
    void gracePasses_stopRequestedOffTheTimerThread() throws Exception {
        CountingScope scope = new CountingScope("async-stop");
        StopThreadProbe work = new StopThreadProbe();
        Scopes.spawn(Scopes.named(work, "poller"), scope.getToken());
        ShutdownReport report = Senders.toCompletableFuture(
                Scopes.joinOrStopAsync(scope, Duration.ofMillis(30), Duration.ofSeconds(5))).get(5, TimeUnit.SECONDS);
        assertEquals(ShutdownReport.Outcome.STOPPED, report.outcome());
        assertEquals(1, report.remainingAtGrace());
        assertEquals("senders-stop-async-stop", work.stoppedOn.get().getName());
    }

    @Test
    @DisplayName("the blocking form runs the stop request on the calling thread (syncWait's run loop)")
    void blockingForm_stopRequestOnCallingThread() {
        CountingScope scope = new CountingScope("blocking");
        StopThreadProbe work = new StopThreadProbe();
        Scopes.spawn(work, scope.getToken());
        ShutdownReport report = Scopes.joinOrStop(scope, Duration.ofMillis(20), Duration.ofSeconds(5));
        assertEquals(ShutdownReport.Outcome.STOPPED, report.outcome());
        assertEquals(Thread.currentThread(), work.stoppedOn.get());
    }

    @Test
    @DisplayName("a stop callback that blocks delays neither the stop deadline nor the report: outcome ABANDONED")
    void blockingStopCallback_doesNotDelayTheDeadline() throws Exception {
        CountingScope scope = new CountingScope("stubborn");
        CountDownLatch release = new CountDownLatch(1);
        java.util.List<dev.senders.Receiver<? super Void>> held = new java.util.concurrent.CopyOnWriteArrayList<>();
        Sender<Void> blocksInStop = r -> () -> {
            held.add(r);
            r.env().stopToken().onStop(() -> {
                try {
                    release.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
        };
        Scopes.spawn(Scopes.named(blocksInStop, "stuck"), scope.getToken());
        long t0 = System.nanoTime();
        ShutdownReport report = Senders.toCompletableFuture(
                Scopes.joinOrStopAsync(scope, Duration.ofMillis(30), Duration.ofMillis(60))).get(5, TimeUnit.SECONDS);
        long took = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
        release.countDown();
        assertEquals(ShutdownReport.Outcome.ABANDONED, report.outcome());
        assertTrue(report.stopRequested());
        assertFalse(report.interrupted());
        assertEquals(1, report.remaining());
        assertEquals("stuck", report.stillRunning().get(0).name().orElseThrow());
        assertTrue(took < 4_000, "returned at its deadline while the stop callback still blocked: " + took + " ms");
        held.forEach(r -> r.setValue(null)); // end the abandoned work: nothing leaks into other tests' hooks
    }

    @Test
    @DisplayName("a stop request on the receiver cuts the shutdown short: scope stopped at once, report delivered")
    void receiverStop_cutsShort() throws Exception {
        CountingScope scope = new CountingScope("cut");
        ManualSender<Void> stuck = new ManualSender<>(false);
        Scopes.spawn(stuck, scope.getToken());
        TestReceiver<ShutdownReport> r = TestReceiver.withStopSource();
        Scopes.joinOrStopAsync(scope, Duration.ofSeconds(30), Duration.ofSeconds(30)).connect(r).start();
        assertFalse(r.isDone());
        r.requestStop();
        assertTrue(r.isDone(), "completed during the stop request");
        ShutdownReport report = r.value();
        assertTrue(report.interrupted());
        assertTrue(report.stopRequested());
        assertEquals(ShutdownReport.Outcome.ABANDONED, report.outcome());
        assertEquals(1, stuck.stopsSeen());
        assertEquals(1, report.remainingAtGrace());
        stuck.complete(null);
        assertEquals(ScopeState.JOINED, scope.state(), "the abandoned join waiter did not break the join");
    }

    @Test
    @DisplayName("onGrace is told the state at the grace deadline, before the stop request")
    void onGrace_toldTheStateAtTheDeadline() throws Exception {
        CountingScope scope = new CountingScope("progress");
        StopThreadProbe work = new StopThreadProbe();
        Scopes.spawn(Scopes.named(work, "slow"), scope.getToken());
        List<ShutdownReport> atGrace = new CopyOnWriteArrayList<>();
        List<Boolean> stopSeenAtGrace = new CopyOnWriteArrayList<>();
        ShutdownReport end = Senders.toCompletableFuture(Scopes.joinOrStopAsync(scope, Duration.ofMillis(20),
                Duration.ofSeconds(5), 3, g -> {
                    atGrace.add(g);
                    stopSeenAtGrace.add(scope.stopToken().stopRequested());
                })).get(5, TimeUnit.SECONDS);
        assertEquals(1, atGrace.size());
        ShutdownReport g = atGrace.get(0);
        assertFalse(g.joined());
        assertFalse(g.stopRequested());
        assertEquals(1, g.remaining());
        assertEquals("slow", g.stillRunning().get(0).name().orElseThrow());
        assertEquals(List.of(false), stopSeenAtGrace);
        assertEquals(ShutdownReport.Outcome.STOPPED, end.outcome());
    }

    @Test
    @DisplayName("2,700 operations left at the deadline: the report lists the oldest N and stays about 30 lines")
    void manyLeft_reportStaysOneScreen() {
        CountingScope scope = new CountingScope("crowded");
        java.util.List<dev.senders.Receiver<? super Void>> held = new java.util.ArrayList<>();
        Sender<Void> ignoring = r -> () -> held.add(r);
        for (int i = 0; i < 2_700; i++) {
            Scopes.spawn(Scopes.named(ignoring, "order-" + (i % 3)), scope.getToken());
        }
        ShutdownReport report = Scopes.joinOrStop(scope, Duration.ofMillis(10), Duration.ofMillis(10));
        assertEquals(2_700, report.remaining());
        assertEquals(OutstandingSummary.DEFAULT_LIMIT, report.stillRunning().size());
        assertEquals(2_700 - OutstandingSummary.DEFAULT_LIMIT, report.unlisted());
        String text = report.toString();
        assertTrue(text.lines().count() <= 30, text.lines().count() + " lines:\n" + text);
        assertTrue(text.contains("2680 more listed operation(s) not shown (limit 20): by name: order-0 900,"), text);
        held.forEach(r -> r.setValue(null)); // end the abandoned work: nothing leaks into other tests' hooks
    }

    @Test
    @DisplayName("a second start of the same operation throws and changes nothing")
    void startedTwice_throws() {
        CountingScope scope = new CountingScope();
        TestReceiver<ShutdownReport> r = new TestReceiver<>();
        OperationState op = Scopes.joinOrStopAsync(scope, Duration.ZERO, Duration.ZERO).connect(r);
        op.start();
        assertThrows(ProtocolViolationException.class, op::start);
        assertEquals(1, r.completions());
    }

    @Test
    @DisplayName("bad arguments are refused with the argument's name")
    void badArguments() {
        CountingScope scope = new CountingScope();
        assertThrows(NullPointerException.class, () -> Scopes.joinOrStopAsync(null, Duration.ZERO, Duration.ZERO));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Scopes.joinOrStopAsync(scope, Duration.ZERO, Duration.ZERO, -2, null));
        assertTrue(e.getMessage().contains("list limit"), e.getMessage());
    }
}
