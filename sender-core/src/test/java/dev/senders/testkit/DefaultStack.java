package dev.senders.testkit;

import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * Runs a check on a new thread with the JVM's default stack size ({@code new Thread(runnable)}, no
 * stack size given): the stack safety tests' thread, since surefire's main thread may have a bigger
 * stack than the threads a program runs on. Test support, not published API.
 */
public final class DefaultStack {

    private DefaultStack() {}

    /**
     * Runs {@code body} on a new default-stack thread, waits for it and returns its result; what it
     * throws is thrown here as is (a {@code StackOverflowError} included).
     */
    public static <T> T call(Callable<T> body) throws Exception {
        CompletableFuture<T> result = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            try {
                result.complete(body.call());
            } catch (Throwable e) {
                result.completeExceptionally(e);
            }
        }, "default-stack");
        t.start();
        try {
            return result.get();
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof Error) {
                throw (Error) cause;
            }
            throw (Exception) cause;
        }
    }
}
