package dev.senders.reactor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.RunLoop;
import dev.senders.Scheduler;
import dev.senders.Schedulers;
import dev.senders.Senders;
import dev.senders.testkit.TestReceiver;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Hooks;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;
import reactor.test.util.RaceTestUtils;

class ReactorSchedulersTest {

    @AfterEach
    void resetHooks() {
        Hooks.resetOnErrorDropped();
    }

    /** A Reactor scheduler that holds tasks until the test runs them. */
    static final class HeldScheduler implements reactor.core.scheduler.Scheduler {
        final List<Runnable> tasks = new CopyOnWriteArrayList<>();
        final List<AtomicBoolean> disposed = new CopyOnWriteArrayList<>();

        @Override
        public Disposable schedule(Runnable task) {
            tasks.add(task);
            AtomicBoolean d = new AtomicBoolean();
            disposed.add(d);
            return new Disposable() {
                @Override
                public void dispose() {
                    d.set(true);
                }

                @Override
                public boolean isDisposed() {
                    return d.get();
                }
            };
        }

        @Override
        public Worker createWorker() {
            throw new UnsupportedOperationException();
        }
    }

    // ---- from(reactor Scheduler) ----

    @Test
    void from_scheduleCompletesOnTheReactorSchedulersThread() {
        reactor.core.scheduler.Scheduler single = reactor.core.scheduler.Schedulers.newSingle("reactor-single");
        try {
            TestReceiver<Void> r = FromPublisherTest.run(ReactorSchedulers.from(single).schedule());
            assertEquals(TestReceiver.Kind.VALUE, r.awaitKind());
            assertTrue(r.thread().getName().startsWith("reactor-single"), r.thread().getName());
        } finally {
            single.dispose();
        }
    }

    @Test
    void from_stopRequestBeforeTheTaskRunsDisposesItAndCompletesStopped() {
        HeldScheduler held = new HeldScheduler();
        TestReceiver<Void> r = FromPublisherTest.run(ReactorSchedulers.from(held).schedule());
        assertEquals(1, held.tasks.size());
        r.requestStop();
        assertEquals(TestReceiver.Kind.STOPPED, r.kind());
        assertTrue(held.disposed.get(0).get(), "the Reactor task was disposed");
        held.tasks.get(0).run(); // a scheduler that runs it anyway: no second completion
        assertEquals(1, r.completions());
    }

    @Test
    void from_stopRequestAfterTheTaskRanChangesNothing() {
        HeldScheduler held = new HeldScheduler();
        TestReceiver<Void> r = FromPublisherTest.run(ReactorSchedulers.from(held).schedule());
        held.tasks.get(0).run();
        r.requestStop();
        assertEquals(TestReceiver.Kind.VALUE, r.kind());
        assertFalse(held.disposed.get(0).get(), "a task that ran is not disposed (that could interrupt it)");
        assertEquals(1, r.completions());
    }

    @Test
    void from_stopAlreadyRequestedSchedulesNothing() {
        HeldScheduler held = new HeldScheduler();
        TestReceiver<Void> r = TestReceiver.withStopSource();
        r.requestStop();
        ReactorSchedulers.from(held).schedule().connect(r).start();
        assertEquals(TestReceiver.Kind.STOPPED, r.kind());
        assertTrue(held.tasks.isEmpty());
    }

    @Test
    void from_rejectedTaskIsSetError() {
        reactor.core.scheduler.Scheduler single = reactor.core.scheduler.Schedulers.newSingle("disposed");
        single.dispose();
        TestReceiver<Void> r = FromPublisherTest.run(ReactorSchedulers.from(single).schedule());
        assertEquals(TestReceiver.Kind.ERROR, r.awaitKind());
        assertInstanceOf(RejectedExecutionException.class, r.error());
    }

    @Test
    void from_stopVersusTaskRun_exactlyOneCompletion() {
        for (int i = 0; i < 10_000; i++) {
            HeldScheduler held = new HeldScheduler();
            TestReceiver<Void> r = FromPublisherTest.run(ReactorSchedulers.from(held).schedule());
            RaceTestUtils.race(r::requestStop, held.tasks.get(0));
            assertEquals(1, r.completions(), "round " + i);
            assertEquals(r.kind() == TestReceiver.Kind.STOPPED, held.disposed.get(0).get(),
                    "round " + i + ": disposed exactly when stop won");
        }
    }

    @Test
    void from_worksAsTheSchedulerOfSyncWaitedWork() {
        reactor.core.scheduler.Scheduler par = reactor.core.scheduler.Schedulers.newParallel("par", 2);
        try {
            Scheduler s = ReactorSchedulers.from(par);
            assertEquals(null, Senders.syncWait(s.schedule()));
        } finally {
            par.dispose();
        }
    }

    // ---- toReactor(sender Scheduler) ----

    @Test
    void toReactor_scheduleRunsTheTaskWhereTheSenderSchedulerCompletes() throws Exception {
        ExecutorService pool = Executors.newSingleThreadExecutor(r -> new Thread(r, "sender-pool"));
        try {
            reactor.core.scheduler.Scheduler rs = ReactorSchedulers.toReactor(Schedulers.fromExecutor(pool));
            CountDownLatch ran = new CountDownLatch(1);
            List<String> where = new CopyOnWriteArrayList<>();
            rs.schedule(() -> {
                where.add(Thread.currentThread().getName());
                ran.countDown();
            });
            assertTrue(ran.await(10, TimeUnit.SECONDS));
            assertEquals(List.of("sender-pool"), where);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void toReactor_disposedTaskNeverRuns() {
        RunLoop loop = Schedulers.runLoop();
        reactor.core.scheduler.Scheduler rs = ReactorSchedulers.toReactor(loop);
        AtomicInteger runs = new AtomicInteger();
        Disposable d = rs.schedule(runs::incrementAndGet);
        rs.schedule(runs::incrementAndGet);
        d.dispose();
        assertTrue(d.isDisposed());
        loop.finish();
        loop.run();
        assertEquals(1, runs.get());
    }

    @Test
    void toReactor_disposeStopsPendingTasksAndRejectsNewOnes() {
        RunLoop loop = Schedulers.runLoop();
        reactor.core.scheduler.Scheduler rs = ReactorSchedulers.toReactor(loop);
        AtomicInteger runs = new AtomicInteger();
        rs.schedule(runs::incrementAndGet);
        reactor.core.scheduler.Scheduler.Worker w = rs.createWorker();
        w.schedule(runs::incrementAndGet);
        rs.dispose();
        assertTrue(rs.isDisposed());
        assertTrue(w.isDisposed(), "disposing the scheduler disposes its workers");
        assertThrows(RejectedExecutionException.class, () -> rs.schedule(runs::incrementAndGet));
        assertThrows(RejectedExecutionException.class, () -> w.schedule(runs::incrementAndGet));
        assertThrows(RejectedExecutionException.class, rs::createWorker);
        loop.finish();
        loop.run();
        assertEquals(0, runs.get());
    }

    @Test
    void toReactor_delayedAndPeriodicSchedulingAreRejected() {
        reactor.core.scheduler.Scheduler rs = ReactorSchedulers.toReactor(Schedulers.inline());
        assertThrows(RejectedExecutionException.class, () -> rs.schedule(() -> {}, 1, TimeUnit.SECONDS));
        assertThrows(RejectedExecutionException.class, () -> rs.schedulePeriodically(() -> {}, 1, 1, TimeUnit.SECONDS));
        assertThrows(RejectedExecutionException.class, () -> rs.createWorker().schedule(() -> {}, 1, TimeUnit.SECONDS));
    }

    @Test
    void toReactor_synchronousRefusalIsRejectedExecutionException() {
        ExecutorService pool = Executors.newSingleThreadExecutor();
        pool.shutdown();
        reactor.core.scheduler.Scheduler rs = ReactorSchedulers.toReactor(Schedulers.fromExecutor(pool));
        assertThrows(RejectedExecutionException.class, () -> rs.schedule(() -> {}));
    }

    @Test
    void toReactor_taskThatThrowsGoesToOperatorsOnErrorDropped() {
        List<Throwable> dropped = new CopyOnWriteArrayList<>();
        Hooks.onErrorDropped(dropped::add);
        IllegalStateException boom = new IllegalStateException("task failed");
        ReactorSchedulers.toReactor(Schedulers.inline()).schedule(() -> {
            throw boom;
        });
        assertEquals(List.of(boom), dropped);
    }

    @Test
    void toReactor_workerRunsTasksOneAtATimeInSubmissionOrder() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            reactor.core.scheduler.Scheduler rs = ReactorSchedulers.toReactor(Schedulers.fromExecutor(pool));
            reactor.core.scheduler.Scheduler.Worker w = rs.createWorker();
            int n = 20_000;
            List<Integer> order = new ArrayList<>(); // not thread-safe on purpose: the worker serializes
            AtomicInteger active = new AtomicInteger();
            AtomicInteger overlaps = new AtomicInteger();
            CountDownLatch done = new CountDownLatch(1);
            Thread[] producers = new Thread[1];
            producers[0] = new Thread(() -> {
                for (int i = 0; i < n; i++) {
                    int k = i;
                    w.schedule(() -> {
                        if (active.incrementAndGet() != 1) {
                            overlaps.incrementAndGet();
                        }
                        order.add(k);
                        active.decrementAndGet();
                        if (k == n - 1) {
                            done.countDown();
                        }
                    });
                }
            });
            producers[0].start();
            assertTrue(done.await(30, TimeUnit.SECONDS), "hang guard");
            assertEquals(0, overlaps.get());
            assertEquals(n, order.size());
            for (int i = 0; i < n; i++) {
                assertEquals(i, order.get(i));
            }
            w.dispose();
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void toReactor_workerTasksFromManyThreadsNeverOverlap() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            reactor.core.scheduler.Scheduler.Worker w =
                    ReactorSchedulers.toReactor(Schedulers.fromExecutor(pool)).createWorker();
            AtomicInteger active = new AtomicInteger();
            AtomicInteger overlaps = new AtomicInteger();
            int perThread = 5_000;
            CountDownLatch all = new CountDownLatch(2 * perThread);
            Runnable task = () -> {
                if (active.incrementAndGet() != 1) {
                    overlaps.incrementAndGet();
                }
                active.decrementAndGet();
                all.countDown();
            };
            RaceTestUtils.race(() -> {
                for (int i = 0; i < perThread; i++) {
                    w.schedule(task);
                }
            }, () -> {
                for (int i = 0; i < perThread; i++) {
                    w.schedule(task);
                }
            });
            assertTrue(all.await(30, TimeUnit.SECONDS), "hang guard");
            assertEquals(0, overlaps.get());
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void toReactor_disposedWorkerDropsPendingTasks() {
        RunLoop loop = Schedulers.runLoop();
        reactor.core.scheduler.Scheduler.Worker w = ReactorSchedulers.toReactor(loop).createWorker();
        AtomicInteger runs = new AtomicInteger();
        w.schedule(runs::incrementAndGet);
        Disposable second = w.schedule(runs::incrementAndGet);
        w.dispose();
        loop.finish();
        loop.run();
        assertEquals(0, runs.get());
        assertTrue(second.isDisposed());
    }

    @Test
    void toReactor_workerTaskDisposedAloneIsSkipped() {
        RunLoop loop = Schedulers.runLoop();
        reactor.core.scheduler.Scheduler.Worker w = ReactorSchedulers.toReactor(loop).createWorker();
        List<Integer> ran = new CopyOnWriteArrayList<>();
        w.schedule(() -> ran.add(1));
        w.schedule(() -> ran.add(2)).dispose();
        w.schedule(() -> ran.add(3));
        loop.finish();
        loop.run();
        assertEquals(List.of(1, 3), ran);
    }

    @Test
    void toReactor_drivesPublishOnAndSubscribeOn() {
        ExecutorService pool = Executors.newFixedThreadPool(2, r -> new Thread(r, "senders-exec"));
        try {
            reactor.core.scheduler.Scheduler rs = ReactorSchedulers.toReactor(Schedulers.fromExecutor(pool));
            StepVerifier.create(Flux.range(1, 1000).subscribeOn(rs).publishOn(rs)
                            .map(i -> Thread.currentThread().getName()).distinct())
                    .expectNext("senders-exec")
                    .expectComplete()
                    .verify(java.time.Duration.ofSeconds(30)); // hang guard only
            StepVerifier.create(Mono.fromCallable(() -> Thread.currentThread().getName()).subscribeOn(rs))
                    .expectNext("senders-exec").expectComplete().verify(java.time.Duration.ofSeconds(30));
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void roundTrip_toReactorThenFromRunsOnTheOriginalExecutor() {
        ExecutorService pool = Executors.newSingleThreadExecutor(r -> new Thread(r, "origin"));
        try {
            Scheduler back = ReactorSchedulers.from(ReactorSchedulers.toReactor(Schedulers.fromExecutor(pool)));
            TestReceiver<Void> r = FromPublisherTest.run(back.schedule());
            assertEquals(TestReceiver.Kind.VALUE, r.awaitKind());
            assertEquals("origin", r.thread().getName());
        } finally {
            pool.shutdownNow();
        }
    }
}
