package dev.senders;

import static dev.senders.Senders.just;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.senders.testkit.ManualExecutor;
import dev.senders.testkit.TestReceiver;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The rules {@code continuesOn} keeps on the library's executor scheduler, where its operation is
 * itself the executor's {@code Runnable} (no schedule operation, no hop receiver).
 */
class ContinuesOnExecutorTest {

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

    @Test
    @DisplayName("[exec.transfer] value, error and stopped are each delivered from the executor's task, once")
    void everyCompletionIsDeliveredFromTheTask() {
        RuntimeException boom = new RuntimeException();
        TestReceiver<Integer> v = TestReceiver.startWith(just(1).continuesOn(onManual), new TestReceiver<>());
        TestReceiver<Integer> e = TestReceiver.startWith(Senders.<Integer>justError(boom).continuesOn(onManual),
                new TestReceiver<>());
        TestReceiver<Integer> s = TestReceiver.startWith(Senders.<Integer>justStopped().continuesOn(onManual),
                new TestReceiver<>());
        assertEquals(0, v.completions() + e.completions() + s.completions());
        assertEquals(3, manual.queued());
        manual.runAll();
        assertEquals(1, v.single().payload());
        assertSame(boom, e.single().payload());
        assertEquals(TestReceiver.Kind.STOPPED, s.single().kind());
    }

    @Test
    @DisplayName("[exec.schedule] stop requested before the hop runs completes stopped instead of the stored result")
    void stopBeforeTheHopRunsCompletesStopped() {
        TestReceiver<Integer> r = TestReceiver.withStopSource();
        just(1).continuesOn(onManual).connect(r).start();
        r.requestStop();
        manual.runAll();
        assertEquals(TestReceiver.Kind.STOPPED, r.single().kind());
    }

    @Test
    @DisplayName("a RejectedExecutionException from the executor is delivered as setError")
    void rejectedSubmissionIsSetError() {
        ExecutorService shutDown = Executors.newSingleThreadExecutor();
        shutDown.shutdown();
        TestReceiver<Integer> r = new TestReceiver<>();
        just(1).continuesOn(Schedulers.fromExecutor(shutDown)).connect(r).start();
        assertInstanceOf(RejectedExecutionException.class, r.single().payload());
    }

    @Test
    @DisplayName("an executor that runs the task and then throws: one completion, the exception is reported")
    void executorThatRunsAndThrowsCompletesOnce() {
        RuntimeException boom = new RuntimeException("after run");
        TestReceiver<Integer> r = new TestReceiver<>();
        just(1).continuesOn(Schedulers.fromExecutor(task -> {
            task.run();
            throw boom;
        })).connect(r).start();
        assertEquals(1, r.single().payload());
        assertEquals(List.of(boom), dropped);
    }

    @Test
    @DisplayName("an executor that runs the task twice: one completion")
    void executorThatRunsTwiceCompletesOnce() {
        TestReceiver<Integer> r = new TestReceiver<>();
        just(1).continuesOn(Schedulers.fromExecutor(task -> {
            task.run();
            task.run();
        })).connect(r).start();
        assertEquals(1, r.single().payload());
    }

    @Test
    @DisplayName("a scheduler that is not the library's executor scheduler takes the general path: schedule() is used")
    void foreignSchedulerUsesSchedule() {
        AtomicInteger schedules = new AtomicInteger();
        Scheduler foreign = () -> {
            schedules.incrementAndGet();
            return onManual.schedule();
        };
        TestReceiver<Integer> r = new TestReceiver<>();
        just(1).continuesOn(foreign).connect(r).start();
        manual.runAll();
        assertEquals(1, r.single().payload());
        assertEquals(1, schedules.get());
    }
}
