package dev.senders.spring.boot.task;

import dev.senders.Sender;
import dev.senders.Senders;
import java.lang.reflect.Method;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.springframework.aop.interceptor.AsyncUncaughtExceptionHandler;
import org.springframework.aop.interceptor.SimpleAsyncUncaughtExceptionHandler;

/**
 * Makes the failure of an {@code @Async} method's task a failure of its work in the application
 * scope, exactly once, whichever way Spring delivers it: a {@code void} method's exception, which
 * Spring hands to the {@link AsyncUncaughtExceptionHandler} and not to the executor, and a
 * {@code Future} or {@code CompletableFuture} method's exception, which Spring puts in the future.
 * The scope's error handler then logs it once with the work's name ({@code Class#method}) and
 * counts it, and the future still carries it to the caller.
 *
 * <p>One {@link Outcome} per task submitted by an {@code @Async} call to a tracked executor: the
 * task is wrapped ({@link #task(Runnable, Outcome)}, {@link #task(Callable, Outcome)}) to record
 * what it throws and to make the outcome current on the thread that runs it, where the handler
 * ({@link #handler}) records what Spring gives it; the task's sender, spawned into the scope, then
 * ends with that error instead of its value ({@link #failing}). A task that throws through the
 * executor already fails its sender: its recorded error is not raised twice.
 *
 * <p>The handler decorates the one the application configured (an {@code AsyncConfigurer}'s):
 * that one is still called with every error. Without one, Spring's default (which logs) is used
 * only for tasks outside the scope, since the scope logs the others.
 */
final class AsyncFailures {

    private static final ThreadLocal<Outcome> RUNNING = new ThreadLocal<>();

    private AsyncFailures() {}

    /** The first failure of one task: written by the thread running it, read when its sender ends. */
    static final class Outcome {
        private volatile @Nullable Throwable failure;

        void fail(Throwable error) {
            if (failure == null) {
                failure = error;
            }
        }

        @Nullable Throwable failure() {
            return failure;
        }
    }

    /** {@code task}'s sender, ending with the recorded failure, if any, instead of its value. */
    static Sender<Void> failing(Sender<Void> task, Outcome outcome) {
        return task.letValue(v -> {
            Throwable f = outcome.failure();
            return f == null ? Senders.<Void>just(null) : Senders.<Void>justError(f);
        });
    }

    static Runnable task(Runnable task, Outcome outcome) {
        return () -> {
            Outcome previous = RUNNING.get();
            RUNNING.set(outcome);
            try {
                task.run();
            } catch (RuntimeException | Error e) {
                outcome.fail(e);
                throw e;
            } finally {
                restore(previous);
            }
        };
    }

    static <T> Callable<T> task(Callable<T> task, Outcome outcome) {
        return () -> {
            Outcome previous = RUNNING.get();
            RUNNING.set(outcome);
            try {
                return task.call();
            } catch (Exception | Error e) {
                outcome.fail(e);
                throw e;
            } finally {
                restore(previous);
            }
        };
    }

    private static void restore(@Nullable Outcome previous) {
        if (previous == null) {
            RUNNING.remove();
        } else {
            RUNNING.set(previous);
        }
    }

    /**
     * The handler for {@code @Async void} methods' exceptions: inside a tracked task, the error
     * becomes the task's failure (and {@code configured}, if any, is called too); elsewhere it goes
     * to {@code configured}, else to Spring's default, which logs it.
     *
     * @param configured the application's handler, looked up at the first error (may supply null)
     */
    static AsyncUncaughtExceptionHandler handler(Supplier<@Nullable AsyncUncaughtExceptionHandler> configured) {
        return new Decorated(configured);
    }

    /** The decorating handler; {@link #toString()} names the decorated one. */
    private static final class Decorated implements AsyncUncaughtExceptionHandler {
        private final Supplier<@Nullable AsyncUncaughtExceptionHandler> configured;
        private final AsyncUncaughtExceptionHandler fallback = new SimpleAsyncUncaughtExceptionHandler();

        Decorated(Supplier<@Nullable AsyncUncaughtExceptionHandler> configured) {
            this.configured = configured;
        }

        @Override
        public void handleUncaughtException(Throwable ex, Method method, @Nullable Object... params) {
            AsyncUncaughtExceptionHandler own = configured.get();
            Outcome outcome = RUNNING.get();
            if (outcome != null) {
                outcome.fail(ex);
                if (own != null) {
                    own.handleUncaughtException(ex, method, params);
                }
                return;
            }
            (own != null ? own : fallback).handleUncaughtException(ex, method, params);
        }

        @Override
        public String toString() {
            return "AsyncFailures handler over " + configured.get();
        }
    }
}
