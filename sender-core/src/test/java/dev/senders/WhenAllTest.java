package dev.senders;

import static dev.senders.Senders.just;
import static dev.senders.Senders.justError;
import static dev.senders.Senders.justStopped;
import static dev.senders.Senders.syncWait;
import static dev.senders.Senders.whenAll;
import static dev.senders.Senders.whenAny;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.testkit.ManualSender;
import dev.senders.testkit.TestReceiver;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** P2300R3 [exec.when_all] and stdexec when_any. */
class WhenAllTest {

    @Test
    @DisplayName("[exec.when_all] values in argument order, nulls kept")
    void whenAll_valuesInArgumentOrder() {
        assertEquals(Arrays.asList(1, null, 3), syncWait(whenAll(just(1), just((Integer) null), just(3))));
        assertEquals(List.of(), syncWait(whenAll(List.<Sender<Integer>>of())));
        assertEquals("a1", syncWait(whenAll(just("a"), just(1), (a, b) -> a + b)));
    }

    @Test
    @DisplayName("[exec.when_all] the first error requests stop on the siblings and wins")
    void whenAll_firstErrorRequestsStopOnSiblings() {
        ManualSender<Integer> sibling = new ManualSender<>(true);
        RuntimeException boom = new RuntimeException("boom");
        TestReceiver<List<Integer>> r = new TestReceiver<>();
        whenAll(sibling, Senders.<Integer>justError(boom)).connect(r).start();
        assertEquals(1, sibling.stopsSeen());
        assertEquals(TestReceiver.Kind.ERROR, r.single().kind());
        assertSame(boom, r.single().payload());
    }

    @Test
    @DisplayName("[exec.when_all] the first stopped requests stop on the siblings; the operation completes stopped")
    void whenAll_firstStopRequestsStopOnSiblings() {
        ManualSender<Integer> sibling = new ManualSender<>(true);
        TestReceiver<List<Integer>> r = new TestReceiver<>();
        whenAll(sibling, Senders.<Integer>justStopped()).connect(r).start();
        assertEquals(1, sibling.stopsSeen());
        assertEquals(TestReceiver.Kind.STOPPED, r.single().kind());
    }

    @Test
    @DisplayName("[exec.when_all] the result is delivered only after every child finished")
    void whenAll_resultOnlyAfterAllChildrenFinished() {
        ManualSender<Integer> slow = new ManualSender<>(false); // ignores the stop request
        RuntimeException boom = new RuntimeException("boom");
        TestReceiver<List<Integer>> r = new TestReceiver<>();
        whenAll(slow, Senders.<Integer>justError(boom)).connect(r).start();
        assertEquals(1, slow.stopsSeen());
        assertEquals(0, r.completions(), "completed before all children finished");
        slow.complete(7);
        assertSame(boom, r.single().payload());
    }

    @Test
    @DisplayName("[exec.when_all] stop requested before start completes stopped and starts no child")
    void whenAll_stopBeforeStartCompletesStoppedAndStartsNoChild() {
        InplaceStopSource stop = new InplaceStopSource();
        stop.requestStop();
        ManualSender<Integer> a = new ManualSender<>(true);
        ManualSender<Integer> b = new ManualSender<>(true);
        TestReceiver<List<Integer>> r = TestReceiver.withStopToken(stop.token());
        whenAll(a, b).connect(r).start();
        assertEquals(TestReceiver.Kind.STOPPED, r.single().kind());
        assertEquals(0, a.starts() + b.starts());
    }

    @Test
    @DisplayName("[exec.when_all] the receiver's stop request is forwarded to the children")
    void whenAll_receiverStopIsForwardedToChildren() {
        InplaceStopSource stop = new InplaceStopSource();
        ManualSender<Integer> a = new ManualSender<>(true);
        ManualSender<Integer> b = new ManualSender<>(true);
        TestReceiver<List<Integer>> r = TestReceiver.withStopToken(stop.token());
        whenAll(a, b).connect(r).start();
        assertEquals(0, r.completions());
        stop.requestStop();
        assertEquals(1, a.stopsSeen());
        assertEquals(1, b.stopsSeen());
        assertEquals(TestReceiver.Kind.STOPPED, r.single().kind());
    }

    @Test
    @DisplayName("[exec.when_all] children completing concurrently: exactly one completion, after all (many runs)")
    void whenAll_concurrentChildrenCompleteOnce() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            Scheduler sch = Schedulers.fromExecutor(pool);
            for (int i = 0; i < 2_000; i++) {
                int k = i;
                Sender<List<Integer>> all = whenAll(
                        just(1).continuesOn(sch), just(2).continuesOn(sch),
                        (k % 2 == 0 ? Senders.<Integer>justError(new RuntimeException("e")) : just(3)).continuesOn(sch),
                        just(4).continuesOn(sch));
                TestReceiver<List<Integer>> r = new TestReceiver<>();
                all.connect(r).start();
                TestReceiver.Signal s = r.awaitSingle();
                if (k % 2 == 0) {
                    assertTrue(s.kind() == TestReceiver.Kind.ERROR || s.kind() == TestReceiver.Kind.STOPPED, s.toString());
                } else {
                    assertTrue(s.kind() == TestReceiver.Kind.VALUE || s.kind() == TestReceiver.Kind.STOPPED, s.toString());
                    if (s.kind() == TestReceiver.Kind.VALUE) {
                        assertEquals(List.of(1, 2, 3, 4), s.payload());
                    }
                }
                assertEquals(1, r.completions());
            }
        } finally {
            pool.shutdownNow();
            pool.awaitTermination(10, TimeUnit.SECONDS);
        }
    }

    @Test
    @DisplayName("when_any: the first value wins and requests stop on the others, delivered after all finished")
    void whenAny_firstValueWinsAndStopsOthers() {
        ManualSender<Integer> loser = new ManualSender<>(false);
        TestReceiver<Integer> r = new TestReceiver<>();
        whenAny(loser, just(5)).connect(r).start();
        assertEquals(1, loser.stopsSeen());
        assertEquals(0, r.completions());
        loser.receiver().setStopped();
        assertEquals(5, r.single().payload());
    }

    @Test
    @DisplayName("when_any: an error wins like a value; stopped children never win")
    void whenAny_errorWinsStoppedNeverWins() {
        RuntimeException boom = new RuntimeException();
        TestReceiver<Integer> r = new TestReceiver<>();
        whenAny(Senders.<Integer>justStopped(), Senders.<Integer>justError(boom), just(1)).connect(r).start();
        assertSame(boom, r.single().payload());
        assertEquals(3, syncWait(whenAny(Senders.<Integer>justStopped(), just(3))));
        assertThrows(CancellationException.class, () -> syncWait(whenAny(justStopped(), justStopped())));
    }

    @Test
    @DisplayName("when_any: stop before start completes stopped and starts no child; the receiver's stop is forwarded")
    void whenAny_stopBeforeStartAndForwarding() {
        InplaceStopSource stop = new InplaceStopSource();
        ManualSender<Integer> a = new ManualSender<>(true);
        TestReceiver<Integer> r = TestReceiver.withStopToken(stop.token());
        whenAny(a).connect(r).start();
        stop.requestStop();
        assertEquals(1, a.stopsSeen());
        assertEquals(TestReceiver.Kind.STOPPED, r.single().kind());

        ManualSender<Integer> b = new ManualSender<>(true);
        TestReceiver<Integer> r2 = TestReceiver.withStopToken(stop.token());
        whenAny(b).connect(r2).start();
        assertEquals(0, b.starts());
        assertEquals(TestReceiver.Kind.STOPPED, r2.single().kind());
    }

    static { // referenced helpers
        justError(new RuntimeException());
    }

    /** A child that completes on the pool (stopped if its token fired first), marking itself finished first. */
    private static Sender<Integer> pooled(ExecutorService pool, java.util.concurrent.atomic.AtomicInteger finished, int v) {
        return r -> () -> pool.execute(() -> {
            finished.incrementAndGet();
            if (r.env().stopToken().stopRequested()) {
                r.setStopped();
            } else {
                r.setValue(v);
            }
        });
    }

    @Test
    @DisplayName("[exec.when_all] receiver stop raced with child completions: one completion, after every child (many runs)")
    void whenAll_receiverStopRacedWithCompletions() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(3);
        try {
            for (int i = 0; i < 2_000; i++) {
                java.util.concurrent.atomic.AtomicInteger finished = new java.util.concurrent.atomic.AtomicInteger();
                InplaceStopSource stop = new InplaceStopSource();
                java.util.concurrent.atomic.AtomicInteger finishedAtCompletion = new java.util.concurrent.atomic.AtomicInteger(-1);
                TestReceiver<List<Integer>> r = TestReceiver.withStopToken(stop.token());
                Receiver<List<Integer>> probe = new Receiver<>() {
                    @Override
                    public void setValue(List<Integer> value) {
                        finishedAtCompletion.set(finished.get());
                        r.setValue(value);
                    }

                    @Override
                    public void setError(Throwable error) {
                        r.setError(error);
                    }

                    @Override
                    public void setStopped() {
                        finishedAtCompletion.set(finished.get());
                        r.setStopped();
                    }

                    @Override
                    public Env env() {
                        return r.env();
                    }
                };
                whenAll(pooled(pool, finished, 1), pooled(pool, finished, 2), pooled(pool, finished, 3))
                        .connect(probe).start();
                pool.execute(stop::requestStop);
                TestReceiver.Signal s = r.awaitSingle();
                assertEquals(3, finishedAtCompletion.get(), "completed before all children finished");
                if (s.kind() == TestReceiver.Kind.VALUE) {
                    assertEquals(List.of(1, 2, 3), s.payload());
                } else {
                    assertEquals(TestReceiver.Kind.STOPPED, s.kind());
                }
            }
            // quiesce, then check that no run got a second signal
            pool.shutdown();
            assertTrue(pool.awaitTermination(10, TimeUnit.SECONDS));
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    @DisplayName("stopWhen: trigger raced with completion: exactly one completion, no stop callback after it (many runs)")
    void stopWhen_triggerRacedWithCompletion() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            for (int i = 0; i < 2_000; i++) {
                InplaceStopSource trigger = new InplaceStopSource();
                InplaceStopSource downstreamStop = new InplaceStopSource();
                java.util.concurrent.atomic.AtomicBoolean completed = new java.util.concurrent.atomic.AtomicBoolean();
                java.util.concurrent.atomic.AtomicBoolean lateStop = new java.util.concurrent.atomic.AtomicBoolean();
                Sender<Integer> child = r -> () -> {
                    // deliberately never deregistered: only stopWhen's own deregistration protects it
                    r.env().stopToken().onStop(() -> {
                        if (completed.get()) {
                            lateStop.set(true);
                        }
                    });
                    pool.execute(() -> r.setValue(1));
                };
                TestReceiver<Integer> r = new TestReceiver<>();
                Receiver<Integer> marking = new Receiver<>() {
                    @Override
                    public void setValue(Integer value) {
                        completed.set(true);
                        r.setValue(value);
                    }

                    @Override
                    public void setError(Throwable error) {
                        r.setError(error);
                    }

                    @Override
                    public void setStopped() {
                        r.setStopped();
                    }

                    @Override
                    public Env env() {   // a downstream that can stop: stopWhen interposes its own source
                        return Env.of(Query.STOP_TOKEN, downstreamStop.token());
                    }
                };
                child.stopWhen(trigger.token()).connect(marking).start();
                pool.execute(trigger::requestStop);
                assertEquals(1, r.awaitSingle().payload());
                trigger.requestStop(); // after completion: must not reach the child
                assertTrue(!lateStop.get(), "a stop callback ran after completion, run " + i);
            }
        } finally {
            pool.shutdownNow();
            pool.awaitTermination(10, TimeUnit.SECONDS);
        }
    }
}
