package dev.senders.test;

import dev.senders.scope.CountingScope;
import java.time.Duration;
import org.springframework.context.ApplicationContext;
import org.springframework.core.Ordered;
import org.springframework.core.env.Environment;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.TestContext;
import org.springframework.test.context.TestExecutionListener;
import org.springframework.test.context.support.DependencyInjectionTestExecutionListener;

/**
 * Makes every Spring test wait, after each test method, for the work it spawned into the
 * application scope (the context's one {@link CountingScope} bean, the starter's) and fail when
 * that work failed or is still running: registered for every Spring test through
 * {@code META-INF/spring.factories} when {@code senders-test} is on the test class path; no
 * annotation is needed (a test class that lists its own {@code @TestExecutionListeners} without
 * merging the defaults leaves it out).
 *
 * <p>Before each test method it starts recording the errors of spawned work: those the
 * context's {@code SpawnErrorLogger} (the starter's scope error handler) logs, and those that
 * reach {@code Hooks.onErrorDropped}. After the method (before the context is dirtied or closed),
 * on the test's thread, it waits for the scope to be idle ({@code whenIdle()}: the scope stays
 * open for the next test of the same cached context) up to the Spring property
 * {@value #IDLE_TIMEOUT_PROPERTY} (default 10 s; {@code "10s"}, {@code "500ms"},
 * {@code "PT10S"}). The test fails when spawned work failed in between (the errors attached as
 * suppressed) or when work still runs at the deadline. Such work is dealt with on this test, so
 * that it never fails a later one: it is listed (name, kind, age, spawn site; debug capture is on
 * during the method), the application scope is shut down with {@code Scopes.joinOrStop} (stop
 * requested at once, 1 s to end), the failure says whether the work then ended or still runs
 * (abandoned, listed again), and the application context is marked dirty, as
 * {@code @DirtiesContext} does: it is closed now, and the next test gets a fresh context whose
 * scope holds none of this work. Only errors from the start of the method to the end of that
 * wait count, and each context's errors are its own, so an earlier test's failure never fails a
 * later one.
 *
 * <p>A test that leaves a fire-and-forget subscription running at its end fails too, naming
 * each subscribe site ({@link AllowFireAndForget} opts out, per method or class).
 *
 * <p>Opt out per test class with the property {@value #ENABLED_PROPERTY}{@code =false} (for
 * example {@code @SpringBootTest(properties = "senders.test.await-idle=false")}). Inside a test,
 * {@link ApplicationScope#awaitIdle()} waits for the side effect in one line.
 */
public final class SendersTestExecutionListener implements TestExecutionListener, Ordered {

    /** The Spring property that bounds the wait after each test method. */
    public static final String IDLE_TIMEOUT_PROPERTY = "senders.test.idle-timeout";

    /** The Spring property that turns the wait off ({@code false}) for a test class. */
    public static final String ENABLED_PROPERTY = "senders.test.await-idle";

    /** The wait's deadline when {@value #IDLE_TIMEOUT_PROPERTY} is not set. */
    public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofSeconds(10);

    /**
     * After Spring's own listeners: {@code afterTestMethod} runs in reverse order, so this one
     * checks the scope before a {@code @DirtiesContext} closes the context.
     */
    public static final int ORDER = 10_000;

    private static final String ATTRIBUTE = SendersTestExecutionListener.class.getName() + ".watch";
    private static final String FIRE_AND_FORGET_ATTRIBUTE = SendersTestExecutionListener.class.getName() + ".fireAndForget";

    /** Created by Spring's TestContext framework. */
    public SendersTestExecutionListener() {
    }

    @Override
    public int getOrder() {
        return ORDER;
    }

    @Override
    public void beforeTestMethod(TestContext testContext) {
        ApplicationContext context = testContext.getApplicationContext();
        Environment env = context.getEnvironment();
        if (!env.getProperty(ENABLED_PROPERTY, Boolean.class, Boolean.TRUE)) {
            return;
        }
        FireAndForgetCheck check = FireAndForgetCheck.begin(testContext.getTestClass().getSimpleName() + "."
                + testContext.getTestMethod().getName(), testContext.getTestMethod(), testContext.getTestClass());
        if (check != null) {
            testContext.setAttribute(FIRE_AND_FORGET_ATTRIBUTE, check);
        }
        CountingScope scope = context.getBeanProvider(CountingScope.class).getIfUnique();
        if (scope == null) {
            return;
        }
        String timeoutText = env.getProperty(IDLE_TIMEOUT_PROPERTY);
        Duration timeout = timeoutText == null ? DEFAULT_IDLE_TIMEOUT : TestDurations.parse(IDLE_TIMEOUT_PROPERTY, timeoutText);
        String test = testContext.getTestClass().getSimpleName() + "." + testContext.getTestMethod().getName();
        boolean full = env.getProperty(SpawnSites.FULL_PROPERTY, Boolean.class, Boolean.FALSE);
        ScopeWatch watch = new ScopeWatch(context, scope, timeout, test, SpawnSites.shown(full));
        testContext.setAttribute(ATTRIBUTE, watch);
        ApplicationScope.enter(watch);
    }

    @Override
    public void afterTestMethod(TestContext testContext) {
        FireAndForgetCheck check = (FireAndForgetCheck) testContext.removeAttribute(FIRE_AND_FORGET_ATTRIBUTE);
        ScopeWatch watch = (ScopeWatch) testContext.removeAttribute(ATTRIBUTE);
        AssertionError failure = null;
        if (watch != null) {
            ApplicationScope.leave(watch);
            ScopeWatch.Verdict verdict = watch.finish();
            if (verdict.scopeShutDown()) {
                // the scope is closed: the next test gets a fresh context (and fresh injected fields)
                testContext.markApplicationContextDirty(DirtiesContext.HierarchyMode.EXHAUSTIVE);
                testContext.setAttribute(DependencyInjectionTestExecutionListener.REINJECT_DEPENDENCIES_ATTRIBUTE, Boolean.TRUE);
            }
            failure = verdict.failure();
        }
        AssertionError leftRunning = check == null ? null : check.end();
        if (failure != null && leftRunning != null) {
            failure.addSuppressed(leftRunning);
        }
        if (failure != null || leftRunning != null) {
            throw failure != null ? failure : leftRunning;
        }
    }
}
