package dev.senders.testkit;

import java.util.ArrayDeque;
import java.util.concurrent.Executor;

/**
 * An executor that queues tasks until the test runs them ({@link #runAll()}), on the test thread:
 * what a scheduler does between {@code execute} and the task running becomes a step of the test.
 * Not thread-safe: for single-threaded tests.
 */
public final class ManualExecutor implements Executor {
    private final ArrayDeque<Runnable> queue = new ArrayDeque<>();

    @Override
    public void execute(Runnable task) {
        queue.add(task);
    }

    /** Runs the queued tasks, and those they queue, until none is left. */
    public void runAll() {
        for (Runnable r; (r = queue.poll()) != null; ) {
            r.run();
        }
    }

    /** How many tasks wait to run. */
    public int queued() {
        return queue.size();
    }

    /** Takes the next queued task without running it (null if none), e.g. to run it twice. */
    public Runnable poll() {
        return queue.poll();
    }
}
