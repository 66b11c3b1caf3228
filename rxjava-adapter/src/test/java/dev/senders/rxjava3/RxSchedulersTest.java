package dev.senders.rxjava3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.RunLoop;
import dev.senders.Scheduler;
import dev.senders.Schedulers;
import dev.senders.testkit.TestReceiver;
import io.reactivex.rxjava3.core.Flowable;
import io.reactivex.rxjava3.disposables.Disposable;
import io.reactivex.rxjava3.schedulers.TestScheduler;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

class RxSchedulersTest {

    private static final ExecutorService POOL = Executors.newFixedThreadPool(4, r -> {
        Thread t = new Thread(r, "sender-pool");
        t.setDaemon(true);
        return t;
    });

    @AfterAll
    static void shutdown() {
        POOL.shutdownNow();
    }

    @Test
    void from_scheduleCompletesOnTheRxSchedulersThread() {
        TestReceiver<Void> r = TestReceiver.start(
                RxSchedulers.from(io.reactivex.rxjava3.schedulers.Schedulers.single()).schedule()).await();
        r.assertValue(null);
        assertTrue(r.thread().getName().startsWith("RxSingleScheduler"), r.thread().getName());
    }

    @Test
    void from_stopRequestDisposesTheTaskAndCompletesStopped() {
        TestScheduler ts = new TestScheduler();
        TestReceiver<Void> r = TestReceiver.start(RxSchedulers.from(ts).schedule());
        r.assertNotCompleted();
        r.requestStop();
        r.assertStopped();
        ts.triggerActions(); // the disposed task does not run: still exactly one completion
        r.assertStopped();
    }

    @Test
    void from_taskRunsWhenTheRxSchedulerRunsIt() {
        TestScheduler ts = new TestScheduler();
        TestReceiver<Void> r = TestReceiver.start(RxSchedulers.from(ts).schedule());
        r.assertNotCompleted();
        ts.triggerActions();
        r.assertValue(null);
        r.requestStop(); // too late: nothing more
        r.assertValue(null);
    }

    @Test
    void from_alreadyStoppedCompletesStoppedWithoutScheduling() {
        TestScheduler ts = new TestScheduler();
        TestReceiver<Void> r = TestReceiver.withStopSource();
        r.requestStop();
        RxSchedulers.from(ts).schedule().connect(r).start();
        r.assertStopped();
    }

    @Test
    void from_rejectedTaskIsSetError() {
        io.reactivex.rxjava3.core.Scheduler refusing = new io.reactivex.rxjava3.core.Scheduler() {
            @Override public Worker createWorker() { throw new UnsupportedOperationException(); }
            @Override public Disposable scheduleDirect(Runnable run) {
                throw new RejectedExecutionException("full");
            }
        };
        TestReceiver.start(RxSchedulers.from(refusing).schedule()).assertError(RejectedExecutionException.class);
    }

    @Test
    void from_shutDownExecutorSchedulerIsSetError() {
        try (PluginErrors plugin = new PluginErrors()) {
            ExecutorService dead = Executors.newSingleThreadExecutor();
            dead.shutdown();
            io.reactivex.rxjava3.core.Scheduler rx = io.reactivex.rxjava3.schedulers.Schedulers.from(dead);
            TestReceiver.start(RxSchedulers.from(rx).schedule()).assertError(RejectedExecutionException.class);
            // RxJava's ExecutorScheduler reports the rejection to the plugins itself as well
            assertEquals(1, plugin.errors.size());
        }
    }

    @Test
    void from_andToRx_roundTripToTheSameObject() {
        io.reactivex.rxjava3.core.Scheduler rx = io.reactivex.rxjava3.schedulers.Schedulers.computation();
        assertSame(rx, RxSchedulers.toRx(RxSchedulers.from(rx)));
        Scheduler s = Schedulers.trampoline();
        assertSame(s, RxSchedulers.from(RxSchedulers.toRx(s)));
        assertThrows(NullPointerException.class, () -> RxSchedulers.from(null));
        assertThrows(NullPointerException.class, () -> RxSchedulers.toRx(null));
    }

    @Test
    void toRx_workerRunsItsTasksSeriallyInOrderOnAMultiThreadedScheduler() throws Exception {
        io.reactivex.rxjava3.core.Scheduler rx = RxSchedulers.toRx(Schedulers.fromExecutor(POOL));
        io.reactivex.rxjava3.core.Scheduler.Worker w = rx.createWorker();
        int n = 2_000;
        List<Integer> order = new ArrayList<>(); // plain list: the worker's serialization is what makes this safe
        AtomicInteger active = new AtomicInteger();
        AtomicInteger overlaps = new AtomicInteger();
        CountDownLatch done = new CountDownLatch(n);
        for (int i = 0; i < n; i++) {
            int k = i;
            w.schedule(() -> {
                if (active.incrementAndGet() != 1) {
                    overlaps.incrementAndGet();
                }
                order.add(k);
                active.decrementAndGet();
                done.countDown();
            });
        }
        assertTrue(done.await(10, TimeUnit.SECONDS), "hang guard");
        assertEquals(0, overlaps.get());
        for (int i = 0; i < n; i++) {
            assertEquals(i, order.get(i));
        }
        w.dispose();
    }

    @Test
    void toRx_disposedWorkerDropsPendingTasks() {
        RunLoop loop = Schedulers.runLoop();
        io.reactivex.rxjava3.core.Scheduler.Worker w = RxSchedulers.toRx(loop).createWorker();
        AtomicInteger ran = new AtomicInteger();
        w.schedule(ran::incrementAndGet);
        w.schedule(ran::incrementAndGet);
        w.dispose();
        assertTrue(w.isDisposed());
        assertTrue(w.schedule(ran::incrementAndGet).isDisposed());
        loop.finish();
        loop.run();
        assertEquals(0, ran.get());
    }

    @Test
    void toRx_disposedTaskDoesNotRunOthersDo() {
        RunLoop loop = Schedulers.runLoop();
        io.reactivex.rxjava3.core.Scheduler.Worker w = RxSchedulers.toRx(loop).createWorker();
        List<String> ran = new ArrayList<>();
        w.schedule(() -> ran.add("a"));
        Disposable b = w.schedule(() -> ran.add("b"));
        w.schedule(() -> ran.add("c"));
        b.dispose();
        loop.finish();
        loop.run();
        assertEquals(List.of("a", "c"), ran);
    }

    @Test
    void toRx_delayedTaskHopsOntoTheSenderScheduler() throws Exception {
        ExecutorService named = Executors.newSingleThreadExecutor(r -> new Thread(r, "the-sender-thread"));
        try {
            io.reactivex.rxjava3.core.Scheduler rx = RxSchedulers.toRx(Schedulers.fromExecutor(named));
            AtomicInteger ran = new AtomicInteger();
            List<String> threads = new CopyOnWriteArrayList<>();
            CountDownLatch done = new CountDownLatch(1);
            rx.scheduleDirect(() -> {
                threads.add(Thread.currentThread().getName());
                ran.incrementAndGet();
                done.countDown();
            }, 5, TimeUnit.MILLISECONDS);
            assertTrue(done.await(10, TimeUnit.SECONDS), "hang guard");
            assertEquals(List.of("the-sender-thread"), threads);
        } finally {
            named.shutdownNow();
        }
    }

    @Test
    void toRx_periodicTaskRepeatsUntilDisposed() throws Exception {
        io.reactivex.rxjava3.core.Scheduler rx = RxSchedulers.toRx(Schedulers.fromExecutor(POOL));
        CountDownLatch three = new CountDownLatch(3);
        Disposable d = rx.schedulePeriodicallyDirect(three::countDown, 0, 1, TimeUnit.MILLISECONDS);
        assertTrue(three.await(10, TimeUnit.SECONDS), "hang guard");
        d.dispose();
        assertTrue(d.isDisposed());
    }

    @Test
    void toRx_observeOnDeliversEverythingInOrder() {
        io.reactivex.rxjava3.core.Scheduler rx = RxSchedulers.toRx(Schedulers.fromExecutor(POOL));
        List<Integer> expected = new ArrayList<>();
        for (int i = 1; i <= 1000; i++) {
            expected.add(i);
        }
        Flowable.range(1, 1000).observeOn(rx).test()
                .awaitDone(10, TimeUnit.SECONDS)
                .assertValueSequence(expected)
                .assertComplete();
    }

    @Test
    void toRx_throwingTaskGoesToRxJavaPluginsAndTheWorkerGoesOn() {
        try (PluginErrors plugin = new PluginErrors()) {
            io.reactivex.rxjava3.core.Scheduler.Worker w = RxSchedulers.toRx(Schedulers.inline()).createWorker();
            AtomicInteger ran = new AtomicInteger();
            w.schedule(() -> { throw new IllegalStateException("task failed"); });
            w.schedule(ran::incrementAndGet);
            assertEquals(1, ran.get());
            assertEquals(1, plugin.errors.size());
            assertInstanceOf(IllegalStateException.class, plugin.errors.get(0));
        }
    }

    @Test
    void toRx_scheduleRejectedBySenderSchedulerThrowsRejectedExecutionAndDisposesTheWorker() {
        try (PluginErrors plugin = new PluginErrors()) {
            ExecutorService dead = Executors.newSingleThreadExecutor();
            dead.shutdown();
            io.reactivex.rxjava3.core.Scheduler.Worker w = RxSchedulers.toRx(Schedulers.fromExecutor(dead)).createWorker();
            AtomicInteger ran = new AtomicInteger();
            assertThrows(RejectedExecutionException.class, () -> w.schedule(ran::incrementAndGet));
            assertEquals(0, ran.get());
            assertTrue(w.isDisposed());
            assertEquals(0, plugin.errors.size(), () -> "thrown to the caller, not reported: " + plugin.errors);
        }
    }

    @Test
    void toRx_inlineSchedulerRecursiveSchedulingDoesNotReenter() {
        io.reactivex.rxjava3.core.Scheduler.Worker w = RxSchedulers.toRx(Schedulers.inline()).createWorker();
        List<String> events = new ArrayList<>();
        w.schedule(() -> {
            events.add("outer-start");
            w.schedule(() -> events.add("inner"));
            events.add("outer-end");
        });
        assertEquals(List.of("outer-start", "outer-end", "inner"), events);
    }

    @Test
    void toRx_senderSchedulerThatGaveUpThrowsRejectedExecutionAndDisposesTheWorker() {
        try (PluginErrors plugin = new PluginErrors()) {
            RunLoop loop = Schedulers.runLoop();
            loop.finish();
            loop.run(); // returns at once: the loop is done; later schedule() completes stopped
            io.reactivex.rxjava3.core.Scheduler.Worker w = RxSchedulers.toRx(loop).createWorker();
            AtomicInteger ran = new AtomicInteger();
            assertThrows(RejectedExecutionException.class, () -> w.schedule(ran::incrementAndGet));
            assertEquals(0, ran.get());
            assertTrue(w.isDisposed());
            assertEquals(0, plugin.errors.size(), () -> "" + plugin.errors);
        }
    }
}
