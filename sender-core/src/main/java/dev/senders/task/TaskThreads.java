package dev.senders.task;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.concurrent.Executor;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;

/**
 * Where task bodies run by default, found once (a static holder, so the lookup happens on first
 * use of a task).
 *
 * <p>On a JDK with virtual threads (21+), every task body gets a new virtual thread named
 * {@code senders-task}; the lookup goes through {@link MethodHandles} ({@code Thread.ofVirtual()},
 * {@code Thread.Builder.name(String, long)}, {@code Thread.Builder.factory()} and
 * {@code Thread.isVirtual()}), so the library compiles with {@code --release 17} and needs no JDK
 * 21 at build time. On an older JDK, or when the system property
 * {@value #USE_VIRTUAL_THREADS_PROPERTY} is {@code false}, bodies run on a cached pool of daemon
 * platform threads named {@code senders-task-N} (60 s idle timeout, like
 * {@link java.util.concurrent.Executors#newCachedThreadPool()}).
 */
final class TaskThreads {

    static final String USE_VIRTUAL_THREADS_PROPERTY = "dev.senders.task.virtualThreads";

    /** Non-null when the running JDK has virtual threads: a factory of unstarted virtual threads. */
    static final @Nullable ThreadFactory VIRTUAL_FACTORY;
    /** {@code Thread.isVirtual()} as a handle, or null before JDK 21. */
    private static final @Nullable MethodHandle IS_VIRTUAL;
    /** The default executor for task bodies. */
    static final Executor DEFAULT;

    static {
        MethodHandle isVirtual = null;
        ThreadFactory factory = null;
        try {
            MethodHandles.Lookup l = MethodHandles.publicLookup();
            isVirtual = l.findVirtual(Thread.class, "isVirtual", MethodType.methodType(boolean.class));
            Class<?> builder = Class.forName("java.lang.Thread$Builder");
            Class<?> ofVirtual = Class.forName("java.lang.Thread$Builder$OfVirtual");
            Object b = l.findStatic(Thread.class, "ofVirtual", MethodType.methodType(ofVirtual)).invoke();
            b = l.findVirtual(builder, "name", MethodType.methodType(builder, String.class, long.class))
                    .invoke(b, "senders-task-v", 0L);
            factory = (ThreadFactory) l.findVirtual(builder, "factory", MethodType.methodType(ThreadFactory.class))
                    .invoke(b);
        } catch (Throwable t) {
            // JDK 17-20: no virtual threads (or a JDK with them disabled); platform threads it is.
            if (t instanceof VirtualMachineError) {
                throw (VirtualMachineError) t;
            }
            factory = null;
        }
        IS_VIRTUAL = isVirtual;
        boolean wanted = !"false".equalsIgnoreCase(System.getProperty(USE_VIRTUAL_THREADS_PROPERTY, "true"));
        VIRTUAL_FACTORY = wanted ? factory : null;
        DEFAULT = VIRTUAL_FACTORY != null ? new VirtualThreadPerTask(VIRTUAL_FACTORY) : platformPool();
    }

    private TaskThreads() {}

    static boolean virtualThreadsUsed() {
        return VIRTUAL_FACTORY != null;
    }

    /** Whether {@code thread} is a virtual thread; always {@code false} before JDK 21. */
    static boolean isVirtual(Thread thread) {
        if (IS_VIRTUAL == null) {
            return false;
        }
        try {
            return (boolean) IS_VIRTUAL.invokeExact(thread);
        } catch (Throwable t) {
            throw new AssertionError("Thread.isVirtual() failed", t);
        }
    }

    private static Executor platformPool() {
        AtomicInteger ids = new AtomicInteger();
        ThreadFactory f = r -> {
            Thread t = new Thread(r, "senders-task-" + ids.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
        return new ThreadPoolExecutor(0, Integer.MAX_VALUE, 60L, TimeUnit.SECONDS, new SynchronousQueue<>(), f);
    }

    /** One new virtual thread per body; nothing to shut down. */
    private static final class VirtualThreadPerTask implements Executor {
        private final ThreadFactory factory;

        VirtualThreadPerTask(ThreadFactory factory) {
            this.factory = factory;
        }

        @Override
        public void execute(Runnable command) {
            factory.newThread(command).start();
        }

        @Override
        public String toString() {
            return "virtual thread per task";
        }
    }
}
