package dev.senders;

import dev.senders.internal.SharedTimer;
import dev.senders.internal.signal.Signals;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.function.Predicate;

/**
 * The check behind {@link Hooks#isNonBlockingThread(Thread)} and {@link Senders#syncWait}'s refusal:
 * the built-in markers, then the predicates added with
 * {@link Hooks#addNonBlockingThreadPredicate}; a predicate that throws counts as false and its
 * exception goes to {@link Hooks#onErrorDropped}. Thread-safe.
 */
final class NonBlockingThreads {
    /*
     * The built-in part depends on the thread's class only (plus, for Netty, one call of the
     * thread's permitBlockingCalls()), so its answer is computed once per class and cached in a
     * ClassValue: no Reactor, RxJava or Netty class is needed at compile time, and a syncWait on an
     * ordinary thread pays one map lookup. Marker interfaces are matched by name on the class, its
     * superclasses and all their superinterfaces. User predicates are a copy-on-write array: reads
     * are one volatile load.
     */

    /** Interfaces whose presence on a thread's class means "never block here". */
    private static final String[] MARKERS = {
        "reactor.core.scheduler.NonBlocking",
        "io.reactivex.rxjava3.internal.schedulers.NonBlockingThread",
    };
    private static final String NETTY_THREAD = "io.netty.util.concurrent.FastThreadLocalThread";

    /** What the class of a thread says: never, always, or ask the Netty thread. */
    private static final Object NEVER = new Object(), ALWAYS = new Object();

    private static final ClassValue<Object> KIND = new ClassValue<>() {
        @Override
        protected Object computeValue(Class<?> type) {
            return classify(type);
        }
    };

    @SuppressWarnings({"unchecked", "rawtypes"}) // a generic array cannot be created
    private static volatile Predicate<? super Thread>[] predicates = new Predicate[0];

    private NonBlockingThreads() {}

    static boolean test(Thread thread) {
        Object kind = KIND.get(thread.getClass());
        if (kind == ALWAYS) {
            return true;
        }
        if (kind != NEVER && !permitsBlocking((java.lang.reflect.Method) kind, thread)) {
            return true;
        }
        for (Predicate<? super Thread> p : predicates) {
            try {
                if (p.test(thread)) {
                    return true;
                }
            } catch (Throwable t) {
                Signals.throwIfFatal(t);
                Hooks.onErrorDropped(t);
            }
        }
        return false;
    }

    private static boolean permitsBlocking(java.lang.reflect.Method permitBlockingCalls, Thread thread) {
        try {   // core reflection: it needs no readability edge to Netty's module (a method handle would)
            return (boolean) permitBlockingCalls.invoke(thread);
        } catch (Throwable t) {
            Signals.throwIfFatal(t);
            return true; // a Netty we cannot ask: do not refuse on a guess
        }
    }

    static void add(Predicate<? super Thread> predicate) {
        for (;;) {
            Predicate<? super Thread>[] old = predicates;
            Predicate<? super Thread>[] a = Arrays.copyOf(old, old.length + 1);
            a[a.length - 1] = predicate;
            if (PREDICATES.compareAndSet(old, a)) {
                return;
            }
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"}) // a generic array cannot be created
    static void reset() {
        predicates = new Predicate[0];
    }

    private static final VarHandle PREDICATES;

    static {
        try {
            PREDICATES = MethodHandles.lookup().findStaticVarHandle(NonBlockingThreads.class, "predicates",
                    Predicate[].class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private static Object classify(Class<?> type) {
        if (SharedTimer.TimerThread.class.isAssignableFrom(type)) {
            return ALWAYS;
        }
        for (Class<?> c = type; c != null && c != Thread.class; c = c.getSuperclass()) {
            if (hasMarker(c)) {
                return ALWAYS;
            }
        }
        for (Class<?> c = type; c != null && c != Thread.class; c = c.getSuperclass()) {
            if (c.getName().equals(NETTY_THREAD)) {
                try {
                    return c.getMethod("permitBlockingCalls");
                } catch (ReflectiveOperationException | RuntimeException e) {
                    return NEVER; // an old Netty without the method
                }
            }
        }
        return NEVER;
    }

    private static boolean hasMarker(Class<?> c) {
        for (Class<?> i : c.getInterfaces()) {
            for (String m : MARKERS) {
                if (i.getName().equals(m)) {
                    return true;
                }
            }
            if (hasMarker(i)) {
                return true;
            }
        }
        return false;
    }
}
