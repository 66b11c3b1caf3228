package dev.senders.task;

import dev.senders.OperationState;
import dev.senders.Sender;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;

/** Small senders the task tests need; the core algorithms are deliberately not used here. */
final class TaskSenders {

    private TaskSenders() {}

    /** Completes with {@code value} from a thread of {@code executor}, recording that thread. */
    static <T> Sender<T> valueOn(Executor executor, T value, Thread[] completer) {
        return r -> () -> executor.execute(() -> {
            completer[0] = Thread.currentThread();
            r.setValue(value);
        });
    }

    /**
     * Never completes on its own: completes stopped when its receiver's stop token fires, and
     * counts down {@code started} once it is started.
     */
    static <T> Sender<T> untilStopped(CountDownLatch started, AtomicInteger sawStop) {
        return r -> new OperationState() {
            @Override
            public void start() {
                r.env().stopToken().onStop(() -> {
                    sawStop.incrementAndGet();
                    r.setStopped();
                });
                started.countDown();
            }
        };
    }
}
