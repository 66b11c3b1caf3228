package dev.senders.task;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.Env;
import dev.senders.RunLoop;
import dev.senders.Scheduler;
import dev.senders.Schedulers;
import dev.senders.Senders;
import dev.senders.testkit.TestReceiver;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Where the body runs: its own thread, scheduler affinity, runOn, virtual threads, stack safety. */
class TaskThreadsTest {

    @Test
    @DisplayName("the body runs on a thread of its own, not the thread that starts the task")
    void bodyRunsOnItsOwnThread() {
        TestReceiver<Thread> p = TestReceiver.start(Task.of(ctx -> Thread.currentThread()));
        p.awaitSignal(TestReceiver.Kind.VALUE);
        assertNotSame(Thread.currentThread(), p.value());
        assertSame(p.value(), p.thread(), "the receiver is completed on the task's thread");
    }

    @Test
    @DisplayName("P3552 scheduler affinity: code after an await runs on the task's thread, never on the completing thread")
    void schedulerAffinity_codeAfterAwaitRunsOnTheTaskThread() {
        ExecutorService other = Executors.newSingleThreadExecutor();
        try {
            Thread[] completer = {null};
            Thread[] threads = Senders.syncWait(Task.of(ctx -> {
                Thread before = Thread.currentThread();
                String v = ctx.await(TaskSenders.valueOn(other, "x", completer));
                return new Thread[] {before, Thread.currentThread(), v.equals("x") ? completer[0] : null};
            }));
            assertSame(threads[0], threads[1]);
            assertTrue(threads[2] != null && threads[2] != threads[1], "completed elsewhere, resumed on the task thread");
        } finally {
            other.shutdownNow();
        }
    }

    @Test
    @DisplayName("P3552 scheduler affinity with syncWait's run loop: the await completes on the waiting thread, the body resumes on its own")
    void schedulerAffinity_runLoopOfSyncWait() {
        Thread waiting = Thread.currentThread();
        Thread[] r = Senders.syncWait(Task.of(ctx -> {
            Scheduler sch = ctx.scheduler().orElseThrow();
            Thread[] completer = {null};
            ctx.await(receiver -> sch.schedule().connect(new dev.senders.Receiver<Void>() {
                @Override
                public void setValue(Void v) {
                    completer[0] = Thread.currentThread();
                    receiver.setValue(null);
                }

                @Override
                public void setError(Throwable e) {
                    receiver.setError(e);
                }

                @Override
                public void setStopped() {
                    receiver.setStopped();
                }

                @Override
                public dev.senders.Env env() {
                    return receiver.env();
                }
            }));
            return new Thread[] {completer[0], Thread.currentThread()};
        }));
        assertSame(waiting, r[0], "the run loop ran the scheduled work on the syncWait thread");
        assertNotSame(waiting, r[1]);
        assertInstanceOf(RunLoop.class, Senders.syncWait(Task.of(ctx -> ctx.scheduler().orElseThrow())));
    }

    @Test
    @DisplayName("P3552 explicit scheduler change: runOn runs the block on the scheduler and returns to the task's thread")
    void runOn_runsTheBlockOnTheSchedulerAndReturnsToTheTaskThread() {
        ExecutorService other = Executors.newSingleThreadExecutor(r -> new Thread(r, "other-scheduler"));
        try {
            Scheduler sch = Schedulers.fromExecutor(other);
            String[] names = Senders.syncWait(Task.of(ctx -> {
                String in = ctx.runOn(sch, () -> Thread.currentThread().getName());
                return new String[] {in, Thread.currentThread().getName()};
            }));
            assertEquals("other-scheduler", names[0]);
            assertTrue(!names[1].equals("other-scheduler"));
        } finally {
            other.shutdownNow();
        }
    }

    @Test
    @DisplayName("runOn: the block runs off the task's thread, so it may not await; its exception is thrown at runOn")
    void runOn_blockCannotAwait() {
        ExecutorService other = Executors.newSingleThreadExecutor();
        try {
            Object r = Senders.syncWait(Task.of(ctx -> {
                try {
                    return ctx.runOn(Schedulers.fromExecutor(other), () -> ctx.await(Senders.just(1)));
                } catch (IllegalStateException expected) {
                    return expected;
                }
            }));
            assertInstanceOf(IllegalStateException.class, r);
        } finally {
            other.shutdownNow();
        }
    }

    @Test
    @DisplayName("P3552 avoiding stack overflow: a loop of 1,000,000 awaits of just(i) completes")
    void avoidingStackOverflow_millionAwaitsOfJust() {
        long sum = assertTimeoutPreemptively(Duration.ofSeconds(60), () -> Senders.syncWait(Task.of(ctx -> {
            long s = 0;
            for (int i = 0; i < 1_000_000; i++) {
                s += ctx.await(Senders.just(i));
            }
            return s;
        })));
        assertEquals(999_999L * 1_000_000L / 2, sum);
    }

    @Test
    @DisplayName("awaits that park: 2,000 awaits completed from another thread each resume the body (lost-wake-up race)")
    void parkingAwaits_completedFromAnotherThread() {
        ExecutorService other = Executors.newSingleThreadExecutor();
        try {
            long sum = assertTimeoutPreemptively(Duration.ofSeconds(60), () -> Senders.syncWait(Task.of(ctx -> {
                long s = 0;
                Thread[] completer = {null};
                for (int i = 0; i < 2_000; i++) {
                    s += ctx.await(TaskSenders.valueOn(other, i, completer));
                }
                return s;
            })));
            assertEquals(1_999L * 2_000L / 2, sum);
        } finally {
            other.shutdownNow();
        }
    }

    @Test
    @DisplayName("thread kind: bodies run on virtual threads exactly when the running JDK has them")
    void threadKind_virtualExactlyWhenTheJdkHasThem() {
        boolean jdkHasThem = Runtime.version().feature() >= 21
                && !"false".equals(System.getProperty("dev.senders.task.virtualThreads"));
        boolean[] kind = Senders.syncWait(Task.of(ctx -> new boolean[] {ctx.isVirtualThread(),
            Task.isVirtual(Thread.currentThread())}));
        assertEquals(jdkHasThem, kind[0]);
        assertEquals(jdkHasThem, kind[1]);
        assertEquals(jdkHasThem, Task.usesVirtualThreads());
    }

    @Test
    @DisplayName("Task.of(executor, body) runs the body on a thread of that executor")
    void ofExecutor_runsTheBodyOnTheExecutorsThread() {
        ExecutorService mine = Executors.newSingleThreadExecutor(r -> new Thread(r, "my-task-thread"));
        try {
            Object[] r = Senders.syncWait(Task.of(mine, ctx -> new Object[] {Thread.currentThread().getName(),
                ctx.await(Senders.just(5)), ctx.isVirtualThread()}));
            assertEquals("my-task-thread", r[0]);
            assertEquals(5, r[1]);
            assertEquals(false, r[2]);
        } finally {
            mine.shutdownNow();
        }
    }

    @Test
    @DisplayName("a task awaiting a task: each body on its own thread, the inner result returned")
    void taskAwaitingTask() {
        Task<Thread> inner = Task.of(ctx -> Thread.currentThread());
        Thread[] r = Senders.syncWait(Task.of(ctx -> new Thread[] {Thread.currentThread(), ctx.await(inner)}));
        assertNotSame(r[0], r[1]);
    }
}
