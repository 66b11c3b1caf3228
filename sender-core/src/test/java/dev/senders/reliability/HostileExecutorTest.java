package dev.senders.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.Hooks;
import dev.senders.Scheduler;
import dev.senders.Schedulers;
import dev.senders.Sender;
import dev.senders.Senders;
import dev.senders.RunLoop;
import dev.senders.scope.CountingScope;
import dev.senders.scope.ScopeState;
import dev.senders.scope.Scopes;
import dev.senders.task.Task;
import dev.senders.testkit.ManualExecutor;
import dev.senders.testkit.ManualSender;
import dev.senders.testkit.TestReceiver;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Executors that misbehave under scoped work, on every path that hands work to an executor
 * (fused {@code startsOn}, the executor scheduler's {@code schedule()}, the fused
 * {@code continuesOn} hop, a {@code Task}'s body) and the run loop:
 * <ul>
 * <li>an executor that hands the task to another thread and then throws: the scope's count follows
 *     the work, not the exception (the exception is reported to {@code Hooks.onErrorDropped});
 * <li>an executor that drops queued tasks ({@code shutdownNow}): the work cannot run, but once stop
 *     is requested it completes stopped, so {@code requestStop()} then {@code join} ends.
 * </ul>
 */
class HostileExecutorTest {

    static final Duration HANG_GUARD = Duration.ofSeconds(10);

    final List<Throwable> dropped = new CopyOnWriteArrayList<>();
    final List<Throwable> handled = new CopyOnWriteArrayList<>();

    @BeforeEach
    void captureDropped() {
        Hooks.setOnErrorDropped(dropped::add);
    }

    @AfterEach
    void resetHooks() {
        Hooks.resetOnErrorDropped();
    }

    /** Runs the task to its first park on a thread of its own, waits until it has begun, then throws. */
    static final class RunsThenThrows implements Executor {
        final RejectedExecutionException late = new RejectedExecutionException("thrown after handing the task on");

        @Override
        public void execute(Runnable task) {
            Thread t = new Thread(task, "hands-on-then-throws");
            t.start();
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            throw late;
        }
    }

    /** Queues the task (it may run later) and then throws. */
    static final class QueuesThenThrows implements Executor {
        final ManualExecutor queue = new ManualExecutor();
        final RejectedExecutionException late = new RejectedExecutionException("thrown after queueing the task");

        @Override
        public void execute(Runnable task) {
            queue.execute(task);
            throw late;
        }
    }

    /** The ways the library hands scoped work to an executor; each returns work that runs {@code work}. */
    static List<Arguments> paths() {
        Function<Scheduler, Function<Sender<Integer>, Sender<?>>> startsOn = sch -> work -> work.startsOn(sch);
        Function<Scheduler, Function<Sender<Integer>, Sender<?>>> schedule = sch -> work -> Senders.schedule(sch)
                .letValue(v -> work);
        Function<Scheduler, Function<Sender<Integer>, Sender<?>>> continuesOn = sch -> work -> Senders.just(1)
                .continuesOn(sch).letValue(v -> work);
        return List.of(
                Arguments.of("startsOn (fused)", startsOn),
                Arguments.of("schedule() then letValue", schedule),
                Arguments.of("continuesOn (fused) then letValue", continuesOn));
    }

    // ------------------------------------------------------------------ hands on, then throws

    @ParameterizedTest(name = "{0}")
    @MethodSource("paths")
    void anExecutorThatRunsTheTaskAndThenThrows_theCountFollowsTheWorkNotTheException(String name,
            Function<Scheduler, Function<Sender<Integer>, Sender<?>>> path) throws Exception {
        CountingScope scope = new CountingScope(handled::add);
        RunsThenThrows executor = new RunsThenThrows();
        ManualSender<Integer> work = new ManualSender<>();
        assertTrue(Scopes.spawn(path.apply(Schedulers.fromExecutor(executor)).apply(work), scope.getToken()));
        assertEquals(1, work.starts(), "the work runs");
        assertEquals(1, scope.count(), "the count follows the running work");
        assertEquals(List.of(executor.late), dropped, "the executor's exception is reported, not lost");
        assertEquals(List.of(), handled, "the work did not fail");
        TestReceiver<Void> join = new TestReceiver<>();
        scope.close();
        scope.join().connect(join).start();
        join.assertNotCompleted();
        work.complete(1);
        join.await().assertValue(null);
        assertEquals(0, scope.errorCount());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("paths")
    void anExecutorThatQueuesTheTaskAndThenThrows_failsTheWorkWhichThenNeverRuns(String name,
            Function<Scheduler, Function<Sender<Integer>, Sender<?>>> path) throws Exception {
        CountingScope scope = new CountingScope(handled::add);
        QueuesThenThrows executor = new QueuesThenThrows();
        ManualSender<Integer> work = new ManualSender<>();
        assertTrue(Scopes.spawn(path.apply(Schedulers.fromExecutor(executor)).apply(work), scope.getToken()));
        assertEquals(List.of(executor.late), handled, "the refusal is the work's error");
        assertEquals(0, scope.count());
        executor.queue.runAll(); // the queued task runs late: it must not run the work
        assertEquals(0, work.connects(), "the failed work never runs");
        assertEquals(List.of(), dropped);
        scope.close();
        assertTimeoutPreemptively(HANG_GUARD, () -> Senders.syncWait(scope.join()));
    }

    @Test
    void aTaskWhoseExecutorRunsTheBodyAndThenThrows_completesWithTheBodysValue() {
        RunsThenThrows executor = new RunsThenThrows();
        TestReceiver<Integer> r = new TestReceiver<>();
        Task.of(executor, ctx -> 42).connect(r).start();
        r.await().assertValue(42);
        assertEquals(1, r.completions());
        assertEquals(List.of(executor.late), dropped);
    }

    // ------------------------------------------------------------------ drops its queue

    @ParameterizedTest(name = "{0}")
    @MethodSource("paths")
    void workQueuedOnAnExecutorThatNeverRunsIt_endsStoppedOnceTheScopeRequestsStop(String name,
            Function<Scheduler, Function<Sender<Integer>, Sender<?>>> path) {
        CountingScope scope = new CountingScope(handled::add);
        ManualExecutor dropsEverything = new ManualExecutor(); // never run: as good as dropped
        ManualSender<Integer> work = new ManualSender<>();
        assertTrue(Scopes.spawn(path.apply(Schedulers.fromExecutor(dropsEverything)).apply(work), scope.getToken()));
        assertEquals(1, scope.count());
        scope.close();
        scope.requestStop();
        assertEquals(0, scope.count(), "stop completes the queued work");
        assertTimeoutPreemptively(HANG_GUARD, () -> Senders.syncWait(scope.join()));
        dropsEverything.runAll(); // if the executor runs it after all, nothing happens twice
        assertEquals(0, work.connects());
        assertEquals(List.of(), handled);
        assertEquals(List.of(), dropped);
    }

    @Test
    void aTaskQueuedOnAnExecutorThatNeverRunsIt_endsStoppedOnceTheScopeRequestsStop() {
        CountingScope scope = new CountingScope(handled::add);
        ManualExecutor dropsEverything = new ManualExecutor();
        Scopes.spawn(Task.of(dropsEverything, ctx -> 1), scope.getToken());
        assertEquals(1, scope.count());
        scope.close();
        scope.requestStop();
        assertTimeoutPreemptively(HANG_GUARD, () -> Senders.syncWait(scope.join()));
        dropsEverything.runAll();
        assertEquals(List.of(), handled);
    }

    @Test
    void workScheduledOnARunLoopThatIsNeverDriven_endsStoppedOnceTheScopeRequestsStop() {
        CountingScope scope = new CountingScope(handled::add);
        RunLoop loop = Schedulers.runLoop();
        ManualSender<Integer> work = new ManualSender<>();
        Scopes.spawn(work.startsOn(loop), scope.getToken());
        scope.close();
        scope.requestStop();
        assertTimeoutPreemptively(HANG_GUARD, () -> Senders.syncWait(scope.join()));
        loop.finish();
        loop.run();
        assertEquals(0, work.connects());
    }

    @Test
    void workQueuedOnAPoolShutDownWithShutdownNow_requestStopThenJoinEnds() throws Exception {
        ExecutorService pool = Executors.newSingleThreadExecutor();
        CountDownLatch blocker = new CountDownLatch(1);
        CountDownLatch running = new CountDownLatch(1);
        pool.execute(() -> {
            running.countDown();
            try {
                blocker.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        assertTrue(running.await(10, TimeUnit.SECONDS));
        CountingScope scope = new CountingScope(handled::add);
        Scheduler sch = Schedulers.fromExecutor(pool);
        for (int i = 0; i < 10; i++) {
            Scopes.spawn(Senders.just(i).startsOn(sch), scope.getToken());
            Scopes.spawn(Senders.schedule(sch), scope.getToken());
            Scopes.spawn(Senders.just(i).continuesOn(sch), scope.getToken());
            Scopes.spawn(Task.of(pool, ctx -> 1), scope.getToken());
        }
        assertEquals(40, scope.count());
        List<Runnable> droppedTasks = pool.shutdownNow(); // interrupts the blocker, drops the queue
        assertEquals(40, droppedTasks.size());
        scope.close();
        CompletableFuture<Void> joined = Senders.toCompletableFuture(scope.join());
        assertFalse(joined.isDone(), "nothing runs the dropped tasks");
        scope.requestStop();
        assertTimeoutPreemptively(HANG_GUARD, () -> joined.join());
        assertSame(ScopeState.JOINED, scope.state());
        assertEquals(List.of(), handled);
        assertEquals(List.of(), dropped);
    }
}
