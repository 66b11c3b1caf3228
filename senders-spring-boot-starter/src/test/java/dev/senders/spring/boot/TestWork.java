package dev.senders.spring.boot;

import dev.senders.Sender;
import dev.senders.Senders;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

/** Sender work for the tests: it runs later, on another thread (the JDK's common pool). */
final class TestWork {

    private TestWork() {
    }

    /** Runs {@code body} {@code millis} after start, on another thread, and completes with its end. */
    static Sender<Void> later(long millis, Runnable body) {
        return Senders.fromCompletionStage(() -> CompletableFuture.runAsync(body, after(millis)));
    }

    /** Fails with {@code IllegalStateException(message)} {@code millis} after start, on another thread. */
    static Sender<Void> failingLater(long millis, String message) {
        return later(millis, () -> {
            throw new IllegalStateException(message);
        });
    }

    private static Executor after(long millis) {
        return CompletableFuture.delayedExecutor(millis, TimeUnit.MILLISECONDS);
    }
}
