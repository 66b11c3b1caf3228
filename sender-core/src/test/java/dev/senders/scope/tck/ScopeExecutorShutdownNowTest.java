package dev.senders.scope.tck;

import static dev.senders.scope.tck.ViewUnderTest.LONG_DELAY_MS;
import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.scope.CountingScope;
import dev.senders.scope.ScopeExecutor;
import dev.senders.scope.tck.ViewUnderTest.Kind;
import dev.senders.scope.tck.ViewUnderTest.StringTask;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * What {@code ScopeExecutor.shutdownNow()} promises beyond the TCK: every task {@code execute}
 * accepted is run, or returned by {@code shutdownNow}, never neither; the futures of the tasks it
 * cancels are cancelled, including those a completion service (and so {@code invokeAny}) wraps.
 */
@DisplayName("ScopeExecutor.shutdownNow: an accepted task is run or returned, and its futures are cancelled")
class ScopeExecutorShutdownNowTest {

    @ParameterizedTest
    @EnumSource(Kind.class)
    @DisplayName("execute racing shutdownNow: each task is rejected, or run, or returned by shutdownNow, exactly one of these")
    void executeRacingShutdownNowLosesNoTask(Kind kind) throws Exception {
        for (int round = 0; round < 200; round++) {
            try (ViewUnderTest v = ViewUnderTest.of(kind)) {
                Set<Runnable> ran = Collections.synchronizedSet(Collections.newSetFromMap(new IdentityHashMap<>()));
                List<Runnable> accepted = new ArrayList<>();
                List<Runnable> rejected = new ArrayList<>();
                CountDownLatch go = new CountDownLatch(1);
                AtomicReference<List<Runnable>> returned = new AtomicReference<>();
                Thread stopper = new Thread(() -> {
                    ViewUnderTest.await(go);
                    returned.set(v.view.shutdownNow());
                });
                stopper.start();
                go.countDown();
                for (int i = 0; i < 50; i++) {
                    Runnable task = new Runnable() {
                        @Override
                        public void run() {
                            ran.add(this);
                        }
                    };
                    try {
                        v.view.execute(task);
                        accepted.add(task);
                    } catch (RejectedExecutionException e) {
                        rejected.add(task);
                    }
                }
                stopper.join(LONG_DELAY_MS);
                assertTrue(v.view.awaitTermination(LONG_DELAY_MS, MILLISECONDS));
                Set<Runnable> back = Collections.newSetFromMap(new IdentityHashMap<>());
                back.addAll(returned.get());
                for (Runnable task : accepted) {
                    assertTrue(ran.contains(task) ^ back.contains(task),
                            "round " + round + ": an accepted task is run or returned by shutdownNow, exactly one");
                }
                for (Runnable task : rejected) {
                    assertFalse(ran.contains(task) || back.contains(task), "a rejected task is neither run nor returned");
                }
                assertEquals(0, v.scope.count());
            }
        }
    }

    @ParameterizedTest
    @EnumSource(value = Kind.class, names = {"BOUNDED_POOL", "CACHED_POOL"})
    @DisplayName("invokeAny returns once shutdownNow stopped its tasks: ExecutionException, or a rejection of the tasks it had still to submit")
    void invokeAnyReturnsAfterShutdownNow(Kind kind) throws Exception {
        try (ViewUnderTest v = ViewUnderTest.of(kind)) {
            CountDownLatch started = new CountDownLatch(1);
            CountDownLatch never = new CountDownLatch(1);
            List<Callable<String>> tasks = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                tasks.add(ViewUnderTest.blocker(started, never));
            }
            Thread caller = invokeAnyOnAnotherThread(v.view, tasks);
            ViewUnderTest.await(started);
            v.view.shutdownNow();
            caller.join(LONG_DELAY_MS);
            assertFalse(caller.isAlive(), "invokeAny returned");
            assertTrue(v.view.awaitTermination(LONG_DELAY_MS, MILLISECONDS));
        }
    }

    @Test
    @DisplayName("invokeAny whose tasks are all queued returns ExecutionException once shutdownNow cancelled them, and shutdownNow returns them")
    void invokeAnyOfQueuedTasksReturnsAfterShutdownNow() throws Exception {
        CountingScope scope = new CountingScope("queued");
        List<Runnable> held = Collections.synchronizedList(new ArrayList<>());
        CountDownLatch allQueued = new CountDownLatch(3);
        ScopeExecutor view = ScopeExecutor.of(r -> {
            held.add(r);
            allQueued.countDown();
        }, scope);
        Thread caller = invokeAnyOnAnotherThread(view, List.of(new StringTask(), new StringTask(), new StringTask()));
        ViewUnderTest.await(allQueued);
        assertEquals(3, view.shutdownNow().size());
        caller.join(LONG_DELAY_MS);
        assertFalse(caller.isAlive(), "invokeAny returned");
        assertInstanceOf(ExecutionException.class, invokeAnyOutcome.get());
        assertInstanceOf(CancellationException.class, invokeAnyOutcome.get().getCause());
        assertTrue(view.isTerminated());
        held.forEach(Runnable::run);
        assertEquals(0, scope.count());
    }

    private final AtomicReference<Throwable> invokeAnyOutcome = new AtomicReference<>();

    private Thread invokeAnyOnAnotherThread(ScopeExecutor view, List<Callable<String>> tasks) {
        return ViewUnderTest.onAnotherThread(() -> view.invokeAny(tasks), invokeAnyOutcome);
    }

    @Test
    @DisplayName("a stop request on the scope cancels the futures of the tasks that never started, and frees a blocked get()")
    void stopCancelsFutures() throws Exception {
        CountingScope scope = new CountingScope("held");
        List<Runnable> held = new ArrayList<>();
        ScopeExecutor view = ScopeExecutor.of(held::add, scope);
        Future<String> f = view.submit(new StringTask());
        AtomicReference<Throwable> outcome = new AtomicReference<>();
        Thread getter = ViewUnderTest.onAnotherThread(f::get, outcome);
        scope.requestStop();
        getter.join(LONG_DELAY_MS);
        assertInstanceOf(CancellationException.class, outcome.get());
        assertEquals(0, scope.count());
        held.forEach(Runnable::run);
        assertTrue(f.isCancelled());
    }

    @Test
    @DisplayName("a stop that comes after the scope accepted a task but before it was registered rejects it to the submitter")
    void stopDuringRegistrationRejects() {
        CountingScope scope = new CountingScope("late-stop");
        AtomicInteger ran = new AtomicInteger();
        // the spawner requests the stop after the scope accepted the task, before its start registers
        ScopeExecutor view = ScopeExecutor.of(Runnable::run, scope, (task, name) -> {
            scope.requestStop();
            return dev.senders.scope.Scopes.spawn(task, scope.getToken());
        });
        RejectedExecutionException e = assertThrows(RejectedExecutionException.class,
                () -> view.execute(ran::incrementAndGet));
        assertTrue(e.getMessage().contains("stop requested"), e.getMessage());
        assertEquals(0, ran.get());
        assertEquals(0, scope.count());
    }
}
