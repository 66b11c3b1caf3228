package dev.senders.scope;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.Senders;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("ScopeExecutor: an ExecutorService whose tasks are work of a CountingScope")
class ScopeExecutorTest {

    /** Holds the tasks it is given until the test runs them. */
    static final class ManualExecutor implements Executor {
        final ArrayDeque<Runnable> queue = new ArrayDeque<>();

        @Override
        public synchronized void execute(Runnable r) {
            queue.add(r);
        }

        synchronized Runnable take() {
            return queue.poll();
        }

        void runAll() {
            for (Runnable r; (r = take()) != null; ) {
                r.run();
            }
        }
    }

    private final List<Throwable> errors = new CopyOnWriteArrayList<>();
    private final CountingScope scope = new CountingScope("tasks", errors::add);
    private ExecutorService pool;

    @AfterEach
    void tearDown() {
        if (pool != null) {
            pool.shutdownNow();
        }
        Thread.interrupted();
    }

    @Test
    @DisplayName("a task is associated when submitted and released after it ran")
    void associatedFromSubmitUntilItRan() {
        ManualExecutor ex = new ManualExecutor();
        ScopeExecutor tasks = ScopeExecutor.of(ex, scope);
        AtomicInteger ran = new AtomicInteger();
        tasks.execute(ran::incrementAndGet);
        assertEquals(1, scope.count());
        assertEquals(0, ran.get());
        ex.runAll();
        assertEquals(1, ran.get());
        assertEquals(0, scope.count());
    }

    @Test
    @DisplayName("a closed scope refuses tasks with a RejectedExecutionException that says it is closed, and counts the refusal")
    void closedScopeRefuses() {
        ScopeExecutor tasks = ScopeExecutor.of(new ManualExecutor(), scope);
        tasks.shutdown();
        RejectedExecutionException e = assertThrows(RejectedExecutionException.class, () -> tasks.execute(() -> {}));
        assertTrue(e.getMessage().contains("scope 'tasks' is closed"), e.getMessage());
        assertEquals(1, scope.refusedCount());
        assertThrows(RejectedExecutionException.class, () -> tasks.submit(() -> 1));
        assertEquals(0, scope.count());
    }

    @Test
    @DisplayName("a scope whose stop was requested refuses tasks and says so")
    void stoppedScopeRefuses() {
        ScopeExecutor tasks = ScopeExecutor.of(new ManualExecutor(), scope);
        scope.requestStop();
        RejectedExecutionException e = assertThrows(RejectedExecutionException.class, () -> tasks.execute(() -> {}));
        assertTrue(e.getMessage().contains("stop requested"), e.getMessage());
        assertEquals(0, scope.count());
    }

    @Test
    @DisplayName("the executor's rejection reaches the submitter as it is, and the association is released")
    void executorRejectionReleases() {
        RejectedExecutionException full = new RejectedExecutionException("queue full");
        ScopeExecutor tasks = ScopeExecutor.of(r -> { throw full; }, scope);
        assertSame(full, assertThrows(RejectedExecutionException.class, () -> tasks.execute(() -> {})));
        assertEquals(0, scope.count());
        assertThrows(RejectedExecutionException.class, () -> tasks.submit(() -> 1));
        assertEquals(0, scope.count());
        assertTrue(errors.isEmpty());
    }

    @Test
    @DisplayName("an executor that fails otherwise: the submitter gets a RejectedExecutionException caused by it, nothing leaks")
    void executorFailureReleases() {
        IllegalStateException boom = new IllegalStateException("boom");
        ScopeExecutor tasks = ScopeExecutor.of(r -> { throw boom; }, scope);
        RejectedExecutionException e = assertThrows(RejectedExecutionException.class, () -> tasks.execute(() -> {}));
        assertSame(boom, e.getCause());
        assertEquals(0, scope.count());
    }

    @Test
    @DisplayName("a stop request before the task ran cancels it: released at once, and the executor's later run does nothing")
    void stopBeforeRunCancels() {
        ManualExecutor ex = new ManualExecutor();
        ScopeExecutor tasks = ScopeExecutor.of(ex, scope);
        AtomicInteger ran = new AtomicInteger();
        tasks.execute(ran::incrementAndGet);
        Future<?> f = tasks.submit(ran::incrementAndGet);
        scope.requestStop();
        assertEquals(0, scope.count());
        assertTrue(f.isCancelled());
        ex.runAll();
        assertEquals(0, ran.get());
        assertTrue(errors.isEmpty());
    }

    @Test
    @DisplayName("cancelling a submit future before it ran releases its association at once")
    void futureCancelReleases() {
        ManualExecutor ex = new ManualExecutor();
        ScopeExecutor tasks = ScopeExecutor.of(ex, scope);
        AtomicInteger ran = new AtomicInteger();
        Future<?> f = tasks.submit(ran::incrementAndGet);
        assertEquals(1, scope.count());
        assertTrue(f.cancel(false));
        assertEquals(0, scope.count());
        ex.runAll();
        assertEquals(0, ran.get());
    }

    @Test
    @DisplayName("an executor that runs a task twice: the task runs once and is released once")
    void secondRunIsNoOp() {
        ManualExecutor ex = new ManualExecutor();
        ScopeExecutor tasks = ScopeExecutor.of(ex, scope);
        AtomicInteger ran = new AtomicInteger();
        tasks.execute(ran::incrementAndGet);
        tasks.execute(() -> {});
        Runnable first = ex.take();
        first.run();
        first.run();
        assertEquals(1, ran.get());
        assertEquals(1, scope.count()); // the second task is still queued
        ex.runAll();
        assertEquals(0, scope.count());
    }

    @Test
    @DisplayName("an exception from an execute task is an error of the scope: handled, counted, named")
    void executeErrorGoesToScope() {
        ManualExecutor ex = new ManualExecutor();
        ScopeExecutor tasks = ScopeExecutor.of(ex, scope);
        IllegalStateException boom = new IllegalStateException("boom");
        Runnable failing = () -> { throw boom; };
        tasks.execute(ScopeExecutor.named(failing, "audit-7"));
        ex.runAll();
        assertEquals(List.of(boom), errors);
        assertEquals(1, scope.errorCount());
        assertEquals("audit-7", ScopeTrace.find(boom).orElseThrow().workName().orElseThrow());
        assertEquals(0, scope.count());
    }

    @Test
    @DisplayName("a submit future keeps its task's exception: the scope's handler does not see it")
    void submitKeepsItsError() {
        ManualExecutor ex = new ManualExecutor();
        ScopeExecutor tasks = ScopeExecutor.of(ex, scope);
        Future<Integer> f = tasks.submit(() -> { throw new IllegalStateException("boom"); });
        ex.runAll();
        ExecutionException e = assertThrows(ExecutionException.class, f::get);
        assertEquals("boom", e.getCause().getMessage());
        assertTrue(errors.isEmpty());
        assertEquals(0, scope.errorCount());
        assertEquals(0, scope.count());
    }

    @Test
    @DisplayName("named tasks are listed in the scope's outstanding() while queued or running, then leave it")
    void namedTasksAreListed() throws Exception {
        ManualExecutor ex = new ManualExecutor();
        ScopeExecutor tasks = ScopeExecutor.of(ex, scope);
        tasks.execute(ScopeExecutor.named(() -> {}, "audit-1"));
        Future<Integer> f = tasks.submit(ScopeExecutor.named(() -> 42, "charge-1"));
        tasks.execute(() -> {});
        List<String> names = new ArrayList<>();
        for (OutstandingWork w : scope.outstanding()) {
            names.add(w.name().orElseThrow());
        }
        assertEquals(List.of("audit-1", "charge-1"), names);
        assertEquals(3, scope.count());
        ex.runAll();
        assertEquals(42, f.get());
        assertTrue(scope.outstanding().isEmpty());
    }

    @Test
    @DisplayName("shutdownNow: refuses new tasks, returns the never-started ones, interrupts the running one, and the interrupt is cleared after it")
    void shutdownNowCancelsAndInterrupts() throws Exception {
        pool = Executors.newFixedThreadPool(1);
        ScopeExecutor tasks = ScopeExecutor.of(pool, scope);
        CountDownLatch running = new CountDownLatch(1);
        AtomicBoolean interrupted = new AtomicBoolean();
        tasks.execute(() -> {
            running.countDown();
            try {
                Thread.sleep(60_000);
            } catch (InterruptedException e) {
                interrupted.set(true);
            }
        });
        Runnable queued = () -> {};
        tasks.execute(queued);
        Future<?> queuedFuture = tasks.submit(() -> {});
        assertTrue(running.await(10, TimeUnit.SECONDS));
        List<Runnable> never = tasks.shutdownNow();
        assertEquals(2, never.size());
        assertTrue(never.contains(queued));
        assertTrue(never.contains(queuedFuture));
        assertTrue(queuedFuture.isCancelled());
        assertTrue(tasks.isShutdown());
        assertTrue(tasks.awaitTermination(10, TimeUnit.SECONDS));
        assertTrue(tasks.isTerminated());
        assertTrue(interrupted.get());
        // the pool thread that ran the interrupted task runs the next one without an interrupt
        Future<Boolean> next = pool.submit(() -> Thread.currentThread().isInterrupted());
        assertFalse(next.get(10, TimeUnit.SECONDS));
        assertThrows(RejectedExecutionException.class, () -> tasks.execute(() -> {}));
        assertTrue(tasks.shutdownNow().isEmpty());
    }

    @Test
    @DisplayName("awaitTermination: false at the deadline while a task runs, true once it ended; isTerminated follows")
    void awaitTerminationJoinsWithDeadline() throws Exception {
        pool = Executors.newFixedThreadPool(1);
        ScopeExecutor tasks = ScopeExecutor.of(pool, scope);
        CountDownLatch release = new CountDownLatch(1);
        tasks.execute(() -> {
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        assertFalse(tasks.awaitTermination(20, TimeUnit.MILLISECONDS)); // open: waits for shutdown()
        assertFalse(tasks.isShutdown());
        tasks.shutdown();
        assertFalse(tasks.awaitTermination(20, TimeUnit.MILLISECONDS));
        assertFalse(tasks.isTerminated());
        release.countDown();
        assertTrue(tasks.awaitTermination(10, TimeUnit.SECONDS));
        assertTrue(tasks.isTerminated());
        assertEquals(ScopeState.JOINED, scope.state());
    }

    @Test
    @DisplayName("awaitTermination throws InterruptedException when interrupted, and clears the status as j.u.c does")
    void awaitTerminationInterrupted() {
        ScopeExecutor tasks = ScopeExecutor.of(new ManualExecutor(), scope);
        tasks.execute(() -> {});
        tasks.shutdown();
        Thread.currentThread().interrupt();
        assertThrows(InterruptedException.class, () -> tasks.awaitTermination(10, TimeUnit.SECONDS));
        assertFalse(Thread.currentThread().isInterrupted());
    }

    @Test
    @DisplayName("Scopes.joinOrStop covers the tasks: joins them, and stops (interrupts) those that outlive the grace")
    void joinOrStopInterruptsLateTasks() {
        pool = Executors.newFixedThreadPool(2);
        ScopeExecutor tasks = ScopeExecutor.of(pool, scope);
        AtomicBoolean interrupted = new AtomicBoolean();
        tasks.execute(ScopeExecutor.named(() -> {
            try {
                Thread.sleep(60_000);
            } catch (InterruptedException e) {
                interrupted.set(true);
            }
        }, "slow"));
        ShutdownReport r = Scopes.joinOrStop(scope, Duration.ofMillis(100), Duration.ofSeconds(10));
        assertTrue(r.joined(), r.toString());
        assertTrue(r.stopRequested());
        assertEquals(1, r.remainingAtGrace());
        assertTrue(interrupted.get());
    }

    @Test
    @DisplayName("invokeAll runs every task as work of the scope")
    void invokeAll() throws Exception {
        pool = Executors.newFixedThreadPool(2);
        ScopeExecutor tasks = ScopeExecutor.of(pool, scope);
        List<Future<Integer>> fs = tasks.invokeAll(List.of(() -> 1, () -> 2, () -> 3));
        int sum = 0;
        for (Future<Integer> f : fs) {
            sum += f.get();
        }
        assertEquals(6, sum);
        tasks.shutdown();
        assertTrue(tasks.awaitTermination(10, TimeUnit.SECONDS));
    }

    @Test
    @DisplayName("CompletableFuture.supplyAsync on the view: the computation itself is work of the scope")
    void completableFutureOnTheView() throws Exception {
        ManualExecutor ex = new ManualExecutor();
        ScopeExecutor tasks = ScopeExecutor.of(ex, scope);
        java.util.concurrent.CompletableFuture<Integer> cf =
                java.util.concurrent.CompletableFuture.supplyAsync(() -> 7, tasks);
        assertEquals(1, scope.count());
        ex.runAll();
        assertEquals(7, cf.get());
        assertEquals(0, scope.count());
    }

    @Test
    @DisplayName("a CompletionStage spawned through Senders.fromCompletionStage is tracked until it completes; its failure is the scope's error")
    void completionStageSpawned() {
        java.util.concurrent.CompletableFuture<String> cf = new java.util.concurrent.CompletableFuture<>();
        assertTrue(Scopes.spawn(Scopes.named(Senders.fromCompletionStage(cf), "reply"), scope.getToken()));
        assertEquals(1, scope.count());
        assertEquals("reply", scope.outstanding().get(0).name().orElseThrow());
        IllegalStateException boom = new IllegalStateException("boom");
        cf.completeExceptionally(boom);
        assertEquals(0, scope.count());
        assertEquals(List.of(boom), errors);
    }

    @Test
    @DisplayName("a CompletionStage spawned into a scope: a stop request cancels the stage and releases it at once")
    void completionStageStopped() {
        java.util.concurrent.CompletableFuture<String> cf = new java.util.concurrent.CompletableFuture<>();
        Scopes.spawn(Senders.fromCompletionStage(cf), scope.getToken());
        scope.requestStop();
        assertTrue(cf.isCancelled());
        assertEquals(0, scope.count());
        assertThrows(CancellationException.class, cf::join);
    }

    @Test
    @DisplayName("ScopeExecutor.of on a view of the same scope returns that view; null arguments are named")
    void ofArguments() {
        ScopeExecutor tasks = ScopeExecutor.of(new ManualExecutor(), scope);
        assertSame(tasks, ScopeExecutor.of(tasks, scope));
        assertEquals("executor", assertThrows(NullPointerException.class, () -> ScopeExecutor.of(null, scope)).getMessage());
        assertEquals("scope", assertThrows(NullPointerException.class, () -> ScopeExecutor.of(Runnable::run, null)).getMessage());
        assertThrows(NullPointerException.class, () -> tasks.execute(null));
    }

    @Test
    @DisplayName("a custom Spawner sees every task with its name and spawns it; its refusal is a RejectedExecutionException")
    void customSpawner() {
        ManualExecutor ex = new ManualExecutor();
        List<String> seen = new CopyOnWriteArrayList<>();
        AtomicBoolean refuse = new AtomicBoolean();
        ScopeExecutor tasks = ScopeExecutor.of(ex, scope, (task, name) -> {
            seen.add(String.valueOf(name));
            return !refuse.get() && Scopes.spawn(name == null ? task : Scopes.named(task, name), scope.getToken());
        });
        tasks.execute(ScopeExecutor.named(() -> {}, "a"));
        tasks.execute(() -> {});
        assertEquals(List.of("a", "null"), seen);
        assertEquals(2, scope.count());
        refuse.set(true);
        assertThrows(RejectedExecutionException.class, () -> tasks.execute(() -> {}));
        ex.runAll();
        assertEquals(0, scope.count());
    }

    @Test
    @DisplayName("a full scope (maxOutstanding) refuses tasks with a RejectedExecutionException that says it is full, counted as FULL")
    void fullScopeRefuses() {
        ManualExecutor ex = new ManualExecutor();
        ScopeExecutor tasks = ScopeExecutor.of(ex, scope);
        scope.setMaxOutstanding(1);
        tasks.execute(() -> {});
        RejectedExecutionException e = assertThrows(RejectedExecutionException.class, () -> tasks.execute(() -> {}));
        assertTrue(e.getMessage().contains("scope 'tasks' is full"), e.getMessage());
        assertTrue(e.getMessage().contains("maxOutstanding limit of 1"), e.getMessage());
        assertEquals(1, scope.refusedCount(RefusalReason.FULL));
        ex.runAll();
        tasks.execute(() -> {}); // room again
        assertEquals(1, scope.count());
    }

    @Test
    @DisplayName("a submission deep inside nested starts (its start queued by the trampoline) that the executor rejects: the rejection is an error of the scope, nothing leaks")
    void deferredRejectionIsAnErrorOfTheScope() {
        RejectedExecutionException full = new RejectedExecutionException("queue full");
        ScopeExecutor tasks = ScopeExecutor.of(r -> { throw full; }, scope);
        AtomicInteger deferred = new AtomicInteger();
        AtomicInteger rejectedAtOnce = new AtomicInteger();
        // each level's start submits a task, then spawns the next level: beyond 16 nested starts, spawn queues the start
        final class Level implements dev.senders.Sender<Void> {
            final int depth;

            Level(int depth) {
                this.depth = depth;
            }

            @Override
            public dev.senders.OperationState connect(dev.senders.Receiver<? super Void> receiver) {
                return () -> {
                    try {
                        tasks.execute(() -> {});
                        deferred.incrementAndGet();   // returned: its start was queued
                    } catch (RejectedExecutionException e) {
                        rejectedAtOnce.incrementAndGet();
                    }
                    if (depth < 40) {
                        Scopes.spawn(new Level(depth + 1), scope.getToken());
                    }
                    receiver.setValue(null);
                };
            }
        }
        Scopes.spawn(new Level(0), scope.getToken());
        assertTrue(deferred.get() > 0, "some submissions were queued by the trampoline");
        assertTrue(rejectedAtOnce.get() > 0, "the shallow ones were rejected at once");
        assertEquals(41, deferred.get() + rejectedAtOnce.get());
        assertEquals(deferred.get(), errors.size(), "each queued rejection is an error of the scope: " + errors);
        assertTrue(errors.stream().allMatch(e -> e == full));
        assertEquals(0, scope.count());
    }
}
