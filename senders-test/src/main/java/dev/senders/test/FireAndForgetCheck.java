package dev.senders.test;

import dev.senders.scope.CountingScope;
import dev.senders.scope.FireAndForgetMode;
import dev.senders.scope.FireAndForgetTracker;
import dev.senders.scope.OutstandingWork;
import java.lang.reflect.AnnotatedElement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.jspecify.annotations.Nullable;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * The fire-and-forget check of one test ({@link SendersExtension}, the Spring listener): a test
 * fails if a fire-and-forget subscription ({@code mono.subscribe()}, RxJava's lambda
 * {@code subscribe(...)}: see {@code dev.senders.reactor.FireAndForget}) that it made is still
 * running at its end; the failure names each subscribe site. {@link AllowFireAndForget} on the
 * method or its class turns the check off.
 *
 * <p>When no hook is installed for an adapter on the class path, the check installs one for the
 * test ({@code REPORT}, with site capture, closed at its end), so every subscription it lists is
 * the test's; when one is installed (an application context with the starter), it looks at the
 * subscriptions that one found since the test began. A subscription ending as the test ends is
 * given {@value #SETTLE_MILLIS} ms to end before it counts. The hooks are per JVM: tests run in
 * parallel see each other's subscriptions.
 */
final class FireAndForgetCheck {

    private static final long SETTLE_MILLIS = 200;
    private static final int MAX_LISTED = 10;

    private final String test;
    private final Instant begin;
    private final List<FireAndForgetTracker> own;
    private final List<FireAndForgetTracker> shared;

    private FireAndForgetCheck(String test, Instant begin, List<FireAndForgetTracker> own,
            List<FireAndForgetTracker> shared) {
        this.test = test;
        this.begin = begin;
        this.own = own;
        this.shared = shared;
    }

    /**
     * Starts the check of {@code test}, or returns {@code null} when the test allows fire-and-forget
     * subscriptions or no adapter is on the class path.
     */
    static @Nullable FireAndForgetCheck begin(String test, @Nullable AnnotatedElement method, @Nullable Class<?> testClass) {
        if (allowed(method) || allowed(testClass)) {
            return null;
        }
        Instant begin = Instant.now();
        List<FireAndForgetTracker> own = new ArrayList<>();
        List<FireAndForgetTracker> shared = new ArrayList<>();
        for (String adapter : List.of("Reactor", "RxJava")) {
            FireAndForgetTracker installed = installed(adapter);
            if (installed != null) {
                shared.add(installed);
                continue;
            }
            FireAndForgetTracker t = install(adapter, test);
            if (t != null) {
                own.add(t);
            }
        }
        return own.isEmpty() && shared.isEmpty() ? null : new FireAndForgetCheck(test, begin, own, shared);
    }

    private static boolean allowed(@Nullable AnnotatedElement e) {
        return e != null && AnnotationSupport.findAnnotation(e, AllowFireAndForget.class).isPresent();
    }

    private static @Nullable FireAndForgetTracker installed(String adapter) {
        for (FireAndForgetTracker t : FireAndForgetTracker.installed()) {
            if (t.adapter().equals(adapter)) {
                return t;
            }
        }
        return null;
    }

    /** Installs {@code adapter}'s hook in REPORT with site capture, if the adapter is on the class path. */
    private static @Nullable FireAndForgetTracker install(String adapter, String test) {
        try {
            CountingScope scope = new CountingScope(test + " (fire-and-forget check)");
            if (adapter.equals("Reactor")) {
                Class.forName("reactor.core.publisher.Mono", false, FireAndForgetCheck.class.getClassLoader());
                return ReactorHook.install(scope);
            }
            Class.forName("io.reactivex.rxjava3.core.Single", false, FireAndForgetCheck.class.getClassLoader());
            return RxJavaHook.install(scope);
        } catch (ClassNotFoundException | LinkageError absent) {
            return null; // the library or its adapter is not on the class path
        } catch (IllegalStateException lockedOrInstalled) {
            return null; // RxJava's plugins locked down, or installed meanwhile by another test
        }
    }

    /**
     * Ends the check: the failure naming the subscriptions the test left running, or {@code null}.
     * Removes the hooks it installed.
     */
    @Nullable AssertionError end() {
        try {
            List<OutstandingWork> left = leftRunning();
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(SETTLE_MILLIS);
            while (!left.isEmpty() && System.nanoTime() - deadline < 0) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1)); // a test support bound, not an ordering
                left = leftRunning();
            }
            return left.isEmpty() ? null : failure(left);
        } finally {
            own.forEach(FireAndForgetTracker::close);
        }
    }

    private List<OutstandingWork> leftRunning() {
        List<OutstandingWork> left = new ArrayList<>();
        for (FireAndForgetTracker t : own) {
            left.addAll(t.running());
        }
        Instant since = begin.minus(Duration.ofMillis(1));
        for (FireAndForgetTracker t : shared) {
            for (OutstandingWork w : t.running()) {
                if (!w.startedAt().isBefore(since)) {
                    left.add(w);
                }
            }
        }
        return left;
    }

    private AssertionError failure(List<OutstandingWork> left) {
        StringBuilder sb = new StringBuilder(test).append(" left ").append(left.size())
                .append(" fire-and-forget subscription(s) running: nothing waits for them or stops them. Keep the")
                .append(" Disposable and dispose it, wait for the work, or spawn it into a scope (ReactorScopes.spawn,")
                .append(" RxScopes.spawn); to leave it running on purpose, annotate the test with @AllowFireAndForget.");
        for (int i = 0; i < left.size() && i < MAX_LISTED; i++) {
            OutstandingWork w = left.get(i);
            sb.append("\n  ").append(w.kind()).append(" at ").append(w.name().orElse("?"));
        }
        if (left.size() > MAX_LISTED) {
            sb.append("\n  ... and ").append(left.size() - MAX_LISTED).append(" more");
        }
        return new AssertionError(sb.toString());
    }

    /** Loaded only when Reactor's adapter is on the class path. */
    private static final class ReactorHook {
        static FireAndForgetTracker install(CountingScope scope) {
            return dev.senders.reactor.FireAndForget.install(scope, FireAndForgetMode.REPORT,
                    FireAndForgetTracker.DEFAULT_FRAMEWORK_PACKAGES, true);
        }
    }

    /** Loaded only when RxJava's adapter is on the class path. */
    private static final class RxJavaHook {
        static FireAndForgetTracker install(CountingScope scope) {
            return dev.senders.rxjava3.FireAndForget.install(scope, FireAndForgetMode.REPORT,
                    FireAndForgetTracker.DEFAULT_FRAMEWORK_PACKAGES, true);
        }
    }
}
