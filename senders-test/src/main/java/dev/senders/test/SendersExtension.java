package dev.senders.test;

import dev.senders.Senders;
import dev.senders.scope.CountingScope;
import dev.senders.scope.OutstandingSummary;
import dev.senders.scope.Scopes;
import dev.senders.scope.ShutdownReport;
import dev.senders.scope.SimpleCountingScope;
import java.lang.reflect.AnnotatedElement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.platform.commons.support.AnnotationSupport;
import org.jspecify.annotations.Nullable;

/**
 * Fails a test whose spawned work is still running after it, or failed: what
 * kotlinx-coroutines-test's {@code runTest} does for child coroutines, for work spawned into
 * scopes.
 *
 * <pre>{@code
 * @ExtendWith(SendersExtension.class)
 * class AuditTest {
 *     @Test
 *     void auditsEachOrder(CountingScope scope) {
 *         new Auditor(scope).onOrder(order);   // spawns into scope, returns at once
 *         syncWait(scope.whenIdle());          // wait for the side effect
 *         assertThat(store.events()).hasSize(1);
 *     }
 * }
 * }</pre>
 *
 * <p><b>Scopes.</b> A test method (or {@code @BeforeEach}/{@code @AfterEach} method) parameter
 * of type {@link CountingScope} or {@link SimpleCountingScope} gets a new, open scope, one of each
 * type per test, named after the test ({@code "AuditTest.auditsEachOrder"}). Its error handler
 * records each error of spawned work. A parameter of type {@link VirtualTime} gets a virtual
 * clock installed for the test and closed after it.
 *
 * <p><b>During the test</b> (from before the first {@code @BeforeEach} method until the scopes
 * joined): debug capture is on ({@code Hooks.enableDebugCapture()}: each spawn records its site)
 * and every error that reaches {@code Hooks.onErrorDropped} is recorded too (and still passed
 * to the handler installed before). Both are put back as they were afterwards.
 *
 * <p><b>After the test</b> (after its {@code @AfterEach} methods), on the test's thread: each
 * scope is closed and joined within the deadline: {@link JoinTimeout} on the method, else on
 * the class, else the JUnit configuration parameter {@value #JOIN_TIMEOUT_PARAMETER}
 * ({@code "5s"}, {@code "500ms"}, {@code "PT5S"}), else 5 s, measured on the real clock. The
 * {@code CountingScope} is shut down with {@link Scopes#joinOrStop}: work still running at the
 * deadline is asked to stop and gets 1 s more to end. The failure lists the work running at the
 * deadline (name, kind, age, spawn site) and says what became of it: it ended after the stop
 * request, or it still runs and is abandoned (listed again); a {@code SimpleCountingScope}
 * cannot stop its work, which is reported as left running. The errors recorded are attached as
 * suppressed exceptions. The test is then reported failed (never aborted); a test that failed
 * already gets this failure as suppressed. Errors of work that fails after the test method
 * returned, before its scope joined, count.
 *
 * <p>Spawn sites in the failure show the caller's frames only (Reactor, RxJava, Spring, JDK,
 * JUnit and library frames are counted, not printed); the JUnit configuration parameter (or
 * system property) {@code senders.test.full-spawn-sites=true} prints them whole.
 *
 * <p><b>Fire-and-forget.</b> A test that leaves a fire-and-forget subscription running at its end
 * ({@code mono.subscribe()}, RxJava's lambda {@code subscribe(...)}, with the library's Reactor or
 * RxJava adapter on the class path) fails too, naming each subscribe site;
 * {@link AllowFireAndForget} on the method or class opts out.
 */
public final class SendersExtension implements BeforeEachCallback, AfterEachCallback, ParameterResolver {

    /** The JUnit configuration parameter for the default join deadline ({@code "5s"}, {@code "PT5S"}). */
    public static final String JOIN_TIMEOUT_PARAMETER = "senders.test.join-timeout";

    /** The join deadline when nothing else is configured. */
    public static final Duration DEFAULT_JOIN_TIMEOUT = Duration.ofSeconds(5);

    /** How long work asked to stop at the deadline gets to end before the failure is reported. */
    private static final Duration STOP_GRACE = Duration.ofSeconds(1);

    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(SendersExtension.class);
    private static final String KEY = "work";
    private static final String FIRE_AND_FORGET = "fireAndForget";

    /** Created by JUnit ({@code @ExtendWith}) or by the test ({@code @RegisterExtension}). */
    public SendersExtension() {
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        String name = context.getRequiredTestClass().getSimpleName() + "." + context.getRequiredTestMethod().getName();
        context.getStore(NAMESPACE).put(KEY, new TestWork(name, ErrorCapture.open()));
        FireAndForgetCheck check = FireAndForgetCheck.begin(name, context.getRequiredTestMethod(), context.getRequiredTestClass());
        if (check != null) {
            context.getStore(NAMESPACE).put(FIRE_AND_FORGET, check);
        }
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        Class<?> type = parameter.getParameter().getType();
        return type == CountingScope.class || type == SimpleCountingScope.class || type == VirtualTime.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        TestWork work = context.getStore(NAMESPACE).get(KEY, TestWork.class);
        if (work == null) {
            throw new ParameterResolutionException("SendersExtension gives a " + parameter.getParameter().getType().getSimpleName()
                    + " to test methods and @BeforeEach/@AfterEach methods only (one per test): declare the parameter there, not on "
                    + parameter.getDeclaringExecutable());
        }
        Class<?> type = parameter.getParameter().getType();
        if (type == CountingScope.class) {
            return work.countingScope();
        }
        if (type == SimpleCountingScope.class) {
            return work.simpleScope();
        }
        return work.virtualTime();
    }

    @Override
    public void afterEach(ExtensionContext context) {
        TestWork work = context.getStore(NAMESPACE).remove(KEY, TestWork.class);
        FireAndForgetCheck check = context.getStore(NAMESPACE).remove(FIRE_AND_FORGET, FireAndForgetCheck.class);
        AssertionError leftRunning = check == null ? null : check.end();
        if (work == null) {
            if (leftRunning != null) {
                throw leftRunning;
            }
            return;
        }
        boolean full = context.getConfigurationParameter(SpawnSites.FULL_PROPERTY).map(Boolean::parseBoolean).orElse(false);
        AssertionError failure = work.finish(joinTimeout(context), SpawnSites.shown(full));
        if (failure != null && leftRunning != null) {
            failure.addSuppressed(leftRunning);
        }
        if (failure != null || leftRunning != null) {
            throw failure != null ? failure : leftRunning;
        }
    }

    private static Duration joinTimeout(ExtensionContext context) {
        Optional<JoinTimeout> a = find(context.getTestMethod().orElse(null));
        if (a.isEmpty()) {
            a = find(context.getTestClass().orElse(null));
        }
        if (a.isPresent()) {
            JoinTimeout t = a.get();
            if (t.value() < 0) {
                throw new IllegalArgumentException("@JoinTimeout(" + t.value() + ") is negative: give zero or more");
            }
            return Duration.ofNanos(t.unit().toNanos(t.value()));
        }
        return context.getConfigurationParameter(JOIN_TIMEOUT_PARAMETER)
                .map(text -> TestDurations.parse(JOIN_TIMEOUT_PARAMETER, text))
                .orElse(DEFAULT_JOIN_TIMEOUT);
    }

    private static Optional<JoinTimeout> find(@Nullable AnnotatedElement element) {
        return element == null ? Optional.empty() : AnnotationSupport.findAnnotation(element, JoinTimeout.class);
    }

    /** The scopes and the error capture of one test. */
    private static final class TestWork {
        private final String name;
        private final ErrorCapture errors;
        private @Nullable CountingScope counting; // the test's thread only (JUnit resolves parameters there)
        private @Nullable SimpleCountingScope simple;
        private @Nullable VirtualTime virtualTime;

        TestWork(String name, ErrorCapture errors) {
            this.name = name;
            this.errors = errors;
        }

        synchronized CountingScope countingScope() {
            if (counting == null) {
                counting = new CountingScope(name, errors);
            }
            return counting;
        }

        synchronized SimpleCountingScope simpleScope() {
            if (simple == null) {
                simple = new SimpleCountingScope(name, errors);
            }
            return simple;
        }

        synchronized VirtualTime virtualTime() {
            if (virtualTime == null) {
                virtualTime = VirtualTime.install();
            }
            return virtualTime;
        }

        /**
         * Shuts the scopes down: a {@code CountingScope} with {@code Scopes.joinOrStop} (the
         * deadline as its grace, then {@link #STOP_GRACE} after the stop request), a
         * {@code SimpleCountingScope}, which cannot be stopped, by joining it within the same
         * deadline. The failure to report, or null.
         */
        synchronized @Nullable AssertionError finish(Duration timeout, Predicate<StackTraceElement> frames) {
            List<WorkFailures.Leftover> leftovers = new ArrayList<>();
            try {
                long deadline = System.nanoTime() + Math.max(0L, timeout.toNanos());
                if (simple != null) {
                    simple.close(); // refuses new work from now on, as the CountingScope's shutdown does
                }
                if (counting != null) {
                    AtomicReference<OutstandingSummary> atDeadline = new AtomicReference<>();
                    ShutdownReport report = Objects.requireNonNull(Senders.syncWait(Scopes.joinOrStopAsync(counting, timeout,
                            STOP_GRACE, OutstandingSummary.DEFAULT_LIMIT, atGrace -> atDeadline.set(atGrace.outstanding()))));
                    OutstandingSummary running = atDeadline.get();
                    if (running != null) {
                        leftovers.add(WorkFailures.Leftover.shutDown(timeout, running, report, frames));
                    }
                }
                if (simple != null && !join(simple.join(), deadline)) {
                    leftovers.add(new WorkFailures.Leftover(timeout, OutstandingSummary.of(simple),
                            "A SimpleCountingScope cannot stop its work: it was left running (abandoned)."));
                }
            } finally {
                errors.close();
                if (virtualTime != null) {
                    virtualTime.close();
                }
            }
            return WorkFailures.failure("scope '" + name + "'", leftovers, errors.errors(), 0L, frames);
        }

        private static boolean join(dev.senders.Sender<Void> join, long deadlineNanos) {
            try {
                Senders.syncWait(join, Duration.ofNanos(Math.max(0L, deadlineNanos - System.nanoTime())));
                return true;
            } catch (TimeoutException late) {
                return false;
            } catch (CancellationException interrupted) {
                return false;
            }
        }
    }
}
