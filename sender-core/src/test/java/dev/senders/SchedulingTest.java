package dev.senders;

import static dev.senders.Senders.just;
import static dev.senders.Senders.read;
import static dev.senders.Senders.syncWait;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.senders.testkit.TestReceiver;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** P2300R3 [exec.transfer] (continuesOn), [exec.on] (startsOn), [exec.schedule]. */
class SchedulingTest {

    private ExecutorService executor;
    private Scheduler target;
    private volatile Thread targetThread;

    @BeforeEach
    void setUp() throws Exception {
        executor = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "target-scheduler");
            t.setDaemon(true);
            targetThread = t;
            return t;
        });
        executor.submit(() -> { }).get(10, TimeUnit.SECONDS);
        target = Schedulers.fromExecutor(executor);
    }

    @AfterEach
    void tearDown() throws Exception {
        executor.shutdownNow();
        executor.awaitTermination(10, TimeUnit.SECONDS);
    }

    @Test
    @DisplayName("[exec.transfer] continuesOn delivers the value on the target scheduler")
    void continuesOn_deliversValueOnTargetScheduler() throws Exception {
        TestReceiver<Integer> r = new TestReceiver<>();
        just(1).continuesOn(target).connect(r).start();
        TestReceiver.Signal s = r.awaitSingle();
        assertEquals(TestReceiver.Kind.VALUE, s.kind());
        assertEquals(1, s.payload());
        assertSame(targetThread, s.thread());
    }

    @Test
    @DisplayName("[exec.transfer] continuesOn delivers the error on the target scheduler")
    void continuesOn_deliversErrorOnTargetScheduler() throws Exception {
        RuntimeException boom = new RuntimeException();
        TestReceiver<Integer> r = new TestReceiver<>();
        Senders.<Integer>justError(boom).continuesOn(target).connect(r).start();
        TestReceiver.Signal s = r.awaitSingle();
        assertEquals(TestReceiver.Kind.ERROR, s.kind());
        assertSame(boom, s.payload());
        assertSame(targetThread, s.thread());
    }

    @Test
    @DisplayName("[exec.transfer] continuesOn delivers stopped on the target scheduler")
    void continuesOn_deliversStoppedOnTargetScheduler() throws Exception {
        TestReceiver<Integer> r = new TestReceiver<>();
        Senders.<Integer>justStopped().continuesOn(target).connect(r).start();
        TestReceiver.Signal s = r.awaitSingle();
        assertEquals(TestReceiver.Kind.STOPPED, s.kind());
        assertSame(targetThread, s.thread());
    }

    @Test
    @DisplayName("[exec.on] inside startsOn(s, ..) the env's scheduler is s")
    void startsOn_envSchedulerIsTheGivenScheduler() {
        assertSame(target, syncWait(read(Query.SCHEDULER).startsOn(target)));
        // outside of it, syncWait's own run loop is the scheduler
        Scheduler outer = syncWait(read(Query.SCHEDULER));
        assertEquals(RunLoop.class, outer.getClass());
    }

    @Test
    @DisplayName("[exec.on] startsOn starts the work on the scheduler's thread")
    void startsOn_startsWorkOnSchedulerThread() {
        assertSame(targetThread, syncWait(just().then(v -> Thread.currentThread()).startsOn(target)));
    }

    @Test
    @DisplayName("[exec.on] a stopped schedule operation completes stopped and never starts the source")
    void startsOn_stoppedScheduleDoesNotStartSource() {
        InplaceStopSource stop = new InplaceStopSource();
        stop.requestStop();
        AtomicInteger started = new AtomicInteger();
        TestReceiver<Integer> r = TestReceiver.withStopToken(stop.token());
        Sender<Integer> source = rcv -> () -> {
            started.incrementAndGet();
            rcv.setValue(1);
        };
        source.startsOn(Schedulers.inline()).connect(r).start();
        assertEquals(TestReceiver.Kind.STOPPED, r.single().kind());
        assertEquals(0, started.get());
    }

    @Test
    @DisplayName("syncWait + continuesOn(runLoop of syncWait) completes on the waiting thread")
    void continuesOn_syncWaitRunLoopCompletesOnCallerThread() {
        Thread me = Thread.currentThread();
        Thread seen = syncWait(read(Query.SCHEDULER)
                .letValue(loop -> just(1).continuesOn(target).continuesOn(loop).then(x -> Thread.currentThread())));
        assertSame(me, seen);
    }

    @Test
    @DisplayName("[exec.schedule] schedule on a stopped token completes stopped")
    void schedule_onStoppedTokenCompletesStopped() {
        InplaceStopSource stop = new InplaceStopSource();
        stop.requestStop();
        TestReceiver<Void> r = TestReceiver.withStopToken(stop.token());
        Schedulers.inline().schedule().connect(r).start();
        assertEquals(TestReceiver.Kind.STOPPED, r.single().kind());
        assertThrows(CancellationException.class, () -> syncWait(Senders.justStopped().continuesOn(target)));
    }
}
