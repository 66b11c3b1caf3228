package dev.senders;

import static dev.senders.Senders.just;
import static dev.senders.Senders.read;
import static dev.senders.Senders.syncWait;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.testkit.ManualExecutor;
import dev.senders.testkit.TestReceiver;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The rules {@code startsOn} keeps on the library's executor scheduler, whose operation is fused
 * into one object (the executor's {@code Runnable}, the source's receiver and its env): each is the
 * rule the general path ({@code schedule()} + a receiver per step) already kept.
 */
class StartsOnExecutorTest {

    private final List<Throwable> dropped = new CopyOnWriteArrayList<>();
    private final ManualExecutor manual = new ManualExecutor();
    private final Scheduler onManual = Schedulers.fromExecutor(manual);

    @BeforeEach
    void captureDropped() {
        Hooks.setOnErrorDropped(dropped::add);
    }

    @AfterEach
    void resetHooks() {
        Hooks.resetOnErrorDropped();
    }

    /** Counts connects and starts; completes with 1 in start. */
    private static final class CountingSource implements Sender<Integer> {
        final AtomicInteger connects = new AtomicInteger();
        final AtomicInteger starts = new AtomicInteger();

        @Override
        public OperationState connect(Receiver<? super Integer> r) {
            connects.incrementAndGet();
            return () -> {
                starts.incrementAndGet();
                r.setValue(1);
            };
        }
    }

    @Test
    @DisplayName("[exec.on] the source is connected and started on the executor's thread, not by start()")
    void sourceIsConnectedAndStartedOnTheExecutor() throws Exception {
        CountingSource source = new CountingSource();
        TestReceiver<Integer> r = new TestReceiver<>();
        source.startsOn(onManual).connect(r).start();
        assertEquals(0, source.connects.get());
        assertEquals(1, manual.queued());
        manual.runAll();
        assertEquals(1, source.connects.get());
        assertEquals(1, source.starts.get());
        assertEquals(1, r.single().payload());

        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            Thread poolThread = pool.submit(Thread::currentThread).get(10, TimeUnit.SECONDS);
            assertSame(poolThread, syncWait(just().then(v -> Thread.currentThread())
                    .startsOn(Schedulers.fromExecutor(pool))));
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    @DisplayName("[exec.on] the source's env answers the scheduler with the given one and forwards every other query")
    void sourceEnvBindsTheSchedulerAndForwardsTheRest() {
        Query<String> custom = Query.of("custom", "default");
        InplaceStopSource stop = new InplaceStopSource();
        AtomicReference<Env> seen = new AtomicReference<>();
        Sender<Integer> source = r -> () -> {
            seen.set(r.env());
            r.setValue(1);
        };
        TestReceiver<Integer> r = new TestReceiver<>(Env.of(custom, "bound").with(Query.STOP_TOKEN, stop.token()));
        source.startsOn(onManual).connect(r).start();
        manual.runAll();
        Env env = seen.get();
        assertSame(onManual, env.get(Query.SCHEDULER));
        assertSame(onManual, env.scheduler().orElseThrow());
        assertEquals("bound", env.get(custom));
        assertSame(stop.token(), env.stopToken());
        assertSame(stop.token(), env.get(Query.STOP_TOKEN));
        assertEquals("x", env.with(custom, "x").get(custom));
        assertSame(onManual, env.with(custom, "x").get(Query.SCHEDULER));
        Scheduler direct = Schedulers.fromExecutor(Runnable::run);
        assertSame(direct, syncWait(read(Query.SCHEDULER).startsOn(direct)));
    }

    @Test
    @DisplayName("[exec.schedule] stop requested before the task runs completes stopped and never connects the source")
    void stopBeforeTheTaskRunsCompletesStopped() {
        CountingSource source = new CountingSource();
        TestReceiver<Integer> r = TestReceiver.withStopSource();
        source.startsOn(onManual).connect(r).start();
        r.requestStop();
        manual.runAll();
        assertEquals(TestReceiver.Kind.STOPPED, r.single().kind());
        assertEquals(0, source.connects.get());
    }

    @Test
    @DisplayName("stop requested after the source started does not add a completion: the source's result is the one")
    void stopAfterTheSourceStartedIsTheSourcesBusiness() {
        AtomicReference<Receiver<? super Integer>> held = new AtomicReference<>();
        Sender<Integer> source = r -> () -> held.set(r);
        TestReceiver<Integer> r = TestReceiver.withStopSource();
        source.startsOn(onManual).connect(r).start();
        manual.runAll();
        r.requestStop();
        assertEquals(0, r.completions());
        held.get().setValue(7);
        assertEquals(7, r.single().payload());
    }

    @Test
    @DisplayName("one stop callback while the task is pending, closed before the source runs")
    void oneStopCallbackWhileTheTaskIsPending_closedBeforeTheSourceRuns() {
        AtomicInteger registrations = new AtomicInteger();
        AtomicInteger closes = new AtomicInteger();
        StopToken counting = new StopToken() {
            @Override
            public boolean stopRequested() {
                return false;
            }

            @Override
            public boolean stopPossible() {
                return true;
            }

            @Override
            public StopCallback onStop(Runnable callback) {
                registrations.incrementAndGet();
                return closes::incrementAndGet;
            }
        };
        TestReceiver<Integer> r = TestReceiver.withStopToken(counting);
        new CountingSource().startsOn(onManual).connect(r).start();
        assertEquals(1, registrations.get());
        assertEquals(0, closes.get());
        manual.runAll();
        assertEquals(1, r.single().payload());
        assertEquals(1, registrations.get());
        assertEquals(1, closes.get());
    }

    @Test
    @DisplayName("no stop callback is registered when the token cannot stop")
    void noStopCallbackWhenTheTokenCannotStop() {
        TestReceiver<Integer> r = new TestReceiver<>();
        new CountingSource().startsOn(onManual).connect(r).start();
        manual.runAll();
        assertEquals(1, r.single().payload());
    }

    @Test
    @DisplayName("a RejectedExecutionException from the executor is delivered as setError; the source is never connected")
    void rejectedSubmissionIsSetError() {
        RejectedExecutionException rejected = new RejectedExecutionException("shut down");
        CountingSource source = new CountingSource();
        TestReceiver<Integer> r = new TestReceiver<>();
        source.startsOn(Schedulers.fromExecutor(task -> { throw rejected; })).connect(r).start();
        TestReceiver.Signal s = r.single();
        assertEquals(TestReceiver.Kind.ERROR, s.kind());
        assertSame(rejected, s.payload());
        assertEquals(0, source.connects.get());

        ExecutorService shutDown = Executors.newSingleThreadExecutor();
        shutDown.shutdown();
        TestReceiver<Integer> r2 = new TestReceiver<>();
        source.startsOn(Schedulers.fromExecutor(shutDown)).connect(r2).start();
        assertInstanceOf(RejectedExecutionException.class, r2.single().payload());
    }

    @Test
    @DisplayName("an executor that runs the task and then throws: one completion, the exception is reported")
    void executorThatRunsAndThrowsCompletesOnce() {
        RuntimeException boom = new RuntimeException("after run");
        TestReceiver<Integer> r = new TestReceiver<>();
        just(1).startsOn(Schedulers.fromExecutor(task -> {
            task.run();
            throw boom;
        })).connect(r).start();
        assertEquals(1, r.single().payload());
        assertEquals(List.of(boom), dropped);
    }

    @Test
    @DisplayName("an executor that runs the task twice: the source is connected and completes once")
    void executorThatRunsTwiceConnectsOnce() {
        CountingSource source = new CountingSource();
        TestReceiver<Integer> r = new TestReceiver<>();
        source.startsOn(Schedulers.fromExecutor(task -> {
            task.run();
            task.run();
        })).connect(r).start();
        assertEquals(1, r.single().payload());
        assertEquals(1, source.connects.get());
    }

    @Test
    @DisplayName("[exec.op_state] starting the operation twice throws ProtocolViolationException and submits once")
    void startTwiceIsRejected() {
        TestReceiver<Integer> r = new TestReceiver<>();
        OperationState op = just(1).startsOn(onManual).connect(r);
        op.start();
        assertThrows(ProtocolViolationException.class, op::start);
        assertEquals(1, manual.queued());
        manual.runAll();
        assertEquals(1, r.single().payload());
        assertThrows(ProtocolViolationException.class, op::start);
    }

    @Test
    @DisplayName("[exec.recv] a source that completes during connect is not started; downstream gets the violation")
    void completionDuringConnectIsAViolation() {
        AtomicInteger starts = new AtomicInteger();
        Sender<Integer> early = r -> {
            r.setValue(1);
            return starts::incrementAndGet;
        };
        TestReceiver<Integer> r = new TestReceiver<>();
        early.startsOn(onManual).connect(r).start();
        manual.runAll();
        assertInstanceOf(ProtocolViolationException.class, r.single().payload());
        assertEquals(0, starts.get());
    }

    @Test
    @DisplayName("[exec.recv] an early setError is reported to Hooks.onErrorDropped, never lost")
    void earlyErrorIsReported() {
        RuntimeException boom = new RuntimeException("early");
        Sender<Integer> early = r -> {
            r.setError(boom);
            return () -> { };
        };
        TestReceiver<Integer> r = new TestReceiver<>();
        early.startsOn(onManual).connect(r).start();
        manual.runAll();
        assertInstanceOf(ProtocolViolationException.class, r.single().payload());
        assertEquals(List.of(boom), dropped);
    }

    @Test
    @DisplayName("[exec.recv] a second completion of the source reaches nobody but Hooks.onErrorDropped")
    void secondCompletionIsReported() {
        Sender<Integer> twice = r -> () -> {
            r.setValue(1);
            r.setStopped();
            r.setError(new RuntimeException());
        };
        TestReceiver<Integer> r = new TestReceiver<>();
        twice.startsOn(onManual).connect(r).start();
        manual.runAll();
        assertEquals(1, r.single().payload());
        assertEquals(2, dropped.size());
        assertTrue(dropped.stream().allMatch(t -> t instanceof ProtocolViolationException));
    }

    @Test
    @DisplayName("a completion during connect on another thread is the completion; the source is then not started")
    void completionDuringConnectOnAnotherThreadIsTheCompletion() throws Exception {
        AtomicInteger starts = new AtomicInteger();
        Sender<Integer> early = r -> {
            Thread t = new Thread(() -> r.setValue(5));
            t.start();
            try {
                t.join();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
            return starts::incrementAndGet;
        };
        TestReceiver<Integer> r = new TestReceiver<>();
        early.startsOn(onManual).connect(r).start();
        manual.runAll();
        assertEquals(5, r.single().payload());
        assertEquals(0, starts.get());
    }

    @Test
    @DisplayName("[exec.recv] a connect that throws becomes setError")
    void throwingConnectIsSetError() {
        RuntimeException boom = new RuntimeException("connect");
        Sender<Integer> bad = r -> {
            throw boom;
        };
        TestReceiver<Integer> r = new TestReceiver<>();
        bad.startsOn(onManual).connect(r).start();
        manual.runAll();
        assertSame(boom, r.single().payload());
    }

    @Test
    @DisplayName("[exec.recv] setError(null) from the source reaches downstream as a NullPointerException")
    void nullErrorBecomesNullPointerException() {
        Sender<Integer> bad = r -> () -> r.setError(null);
        TestReceiver<Integer> r = new TestReceiver<>();
        bad.startsOn(onManual).connect(r).start();
        manual.runAll();
        assertInstanceOf(NullPointerException.class, r.single().payload());
    }

    @Test
    @DisplayName("[exec.recv] a downstream setValue that throws gets the exception through setError")
    void throwingDownstreamSetValueBecomesSetError() {
        RuntimeException boom = new RuntimeException("downstream");
        AtomicReference<Throwable> got = new AtomicReference<>();
        Receiver<Integer> r = new Receiver<>() {
            @Override
            public void setValue(Integer value) {
                throw boom;
            }

            @Override
            public void setError(Throwable error) {
                got.set(error);
            }

            @Override
            public void setStopped() {
            }
        };
        just(1).startsOn(onManual).connect(r).start();
        manual.runAll();
        assertSame(boom, got.get());
    }

    @Test
    @DisplayName("a scheduler that is not the library's executor scheduler takes the general path: schedule() is used")
    void foreignSchedulerUsesSchedule() {
        AtomicInteger schedules = new AtomicInteger();
        Scheduler inner = Schedulers.fromExecutor(manual);
        Scheduler foreign = () -> {
            schedules.incrementAndGet();
            return inner.schedule();
        };
        TestReceiver<Integer> r = new TestReceiver<>();
        just(1).startsOn(foreign).connect(r).start();
        manual.runAll();
        assertEquals(1, r.single().payload());
        assertEquals(1, schedules.get());
    }

    @Test
    @DisplayName("many tasks on a pool with racing stop requests: every operation completes exactly once")
    void racingStopsCompleteExactlyOnce() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            Scheduler sch = Schedulers.fromExecutor(pool);
            int n = 2_000;
            List<TestReceiver<Integer>> rs = new java.util.ArrayList<>();
            for (int i = 0; i < n; i++) {
                TestReceiver<Integer> r = TestReceiver.withStopSource();
                rs.add(r);
                just(i).startsOn(sch).connect(r).start();
                if (i % 2 == 0) {
                    r.requestStop();
                }
            }
            for (TestReceiver<Integer> r : rs) {
                r.await();
            }
            for (int i = 0; i < n; i++) {
                TestReceiver.Signal s = rs.get(i).single();
                if (i % 2 == 1) {
                    assertEquals(i, s.payload());
                } else {
                    assertTrue(s.kind() == TestReceiver.Kind.STOPPED || Integer.valueOf(i).equals(s.payload()));
                }
            }
            assertEquals(List.of(), dropped);
        } finally {
            pool.shutdownNow();
        }
    }
}
