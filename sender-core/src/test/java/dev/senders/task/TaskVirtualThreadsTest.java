package dev.senders.task;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.Senders;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Runs only when {@code -Dtask.expectVirtualThreads=true} (scripts/task-tests-jdk25.sh passes it
 * when it runs the task tests under a JDK 21+): there, task bodies must run on virtual threads.
 */
@EnabledIfSystemProperty(named = "task.expectVirtualThreads", matches = "true")
class TaskVirtualThreadsTest {

    @Test
    @DisplayName("Lazy task: on a JDK with virtual threads the body runs on a virtual thread")
    void bodyRunsOnAVirtualThread() {
        assertTrue(Runtime.version().feature() >= 21, "expected a JDK 21+, running " + Runtime.version());
        assertTrue(Task.usesVirtualThreads(), "Task.usesVirtualThreads()");
        boolean[] kind = Senders.syncWait(Task.of(ctx -> new boolean[] {ctx.isVirtualThread(),
            Task.isVirtual(Thread.currentThread())}));
        assertTrue(kind[0], "ctx.isVirtualThread()");
        assertTrue(kind[1], "Task.isVirtual(Thread.currentThread())");
    }

    @Test
    @DisplayName("P3552 avoiding stack overflow on a virtual thread: 1,000,000 awaits of just(i)")
    void millionAwaitsOnAVirtualThread() {
        long sum = Senders.syncWait(Task.of(ctx -> {
            long s = 0;
            for (int i = 0; i < 1_000_000; i++) {
                s += ctx.await(Senders.just(i));
            }
            return s;
        }));
        assertTrue(sum == 999_999L * 1_000_000L / 2, "sum " + sum);
    }
}
