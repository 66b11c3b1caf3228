package dev.senders.spring.boot.task;

import dev.senders.scope.ScopeExecutor;
import dev.senders.spring.boot.ScopeSpawner;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.function.Supplier;
import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.springframework.beans.factory.ObjectProvider;

/**
 * The advice of a tracked executor's proxy: {@code execute}, {@code submit} and
 * {@code submitCompletable} go through a {@link ScopeExecutor} over the bean itself (the target,
 * not the proxy), whose tasks are spawned with the application's {@link ScopeSpawner} (counted, with
 * the submitting thread's context, under the task's name). A task is named after the
 * {@code @Async} method submitting it ({@link AsyncMethodNames}), else {@code "<bean name> task"}.
 * Every other method reaches the bean unchanged.
 */
final class TrackedExecutorInterceptor implements MethodInterceptor {

    private final Executor target;
    private final String defaultName;
    private final ObjectProvider<ScopeSpawner> spawners;
    private volatile ScopeExecutor view;

    TrackedExecutorInterceptor(Executor target, String beanName, ObjectProvider<ScopeSpawner> spawners) {
        this.target = target;
        this.defaultName = beanName + " task";
        this.spawners = spawners;
    }

    private ScopeExecutor view() {
        ScopeExecutor v = view;
        if (v == null) {
            ScopeSpawner spawner = spawners.getObject();
            v = ScopeExecutor.of(target, spawner.scope(), spawner.taskSpawner());
            view = v;
        }
        return v;
    }

    private String name() {
        String n = AsyncMethodNames.current();
        return n != null ? n : defaultName;
    }

    @Override
    public Object invoke(MethodInvocation invocation) throws Throwable {
        Object[] args = invocation.getArguments();
        if (args.length == 0 || !(args[0] instanceof Runnable || args[0] instanceof Callable)) {
            return invocation.proceed();
        }
        switch (invocation.getMethod().getName()) {
            case "execute":
                if (args[0] instanceof Runnable task) {
                    view().execute(ScopeExecutor.named(task, name()));
                    return null;
                }
                break;
            case "submit":
                if (args[0] instanceof Callable<?> task) {
                    return view().submit(ScopeExecutor.named(task, name()));
                }
                return view().submit(ScopeExecutor.named((Runnable) args[0], name()));
            case "submitCompletable": {
                String name = name();
                ScopeExecutor v = view();
                Executor named = command -> v.execute(ScopeExecutor.named(command, name));
                if (args[0] instanceof Callable<?> task) {
                    return CompletableFuture.supplyAsync(supplier(task), named);
                }
                return CompletableFuture.runAsync((Runnable) args[0], named);
            }
            default:
                break;
        }
        return invocation.proceed();
    }

    private static <T> Supplier<T> supplier(Callable<T> task) {
        return () -> {
            try {
                return task.call();
            } catch (RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new CompletionException(e);
            }
        };
    }
}
