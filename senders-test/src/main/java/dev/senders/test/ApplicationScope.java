package dev.senders.test;

import java.time.Duration;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The one-line wait for background work in a Spring test: {@link #awaitIdle()} returns once the
 * application scope (the starter's {@code CountingScope}) holds no work, so the test can assert
 * the side effect of what it spawned.
 *
 * <pre>{@code
 * @SpringBootTest(webEnvironment = RANDOM_PORT)
 * @AutoConfigureWebTestClient            // Spring Boot 4: makes the WebTestClient bean
 * class OrderAuditTest {
 *     @Test
 *     void anOrderIsAudited(@Autowired WebTestClient web, @Autowired AuditStore store) {
 *         web.post().uri("/orders").exchange().expectStatus().isAccepted();
 *         ApplicationScope.awaitIdle();
 *         assertThat(store.events()).hasSize(1);
 *     }
 * }
 * }</pre>
 *
 * <p>Works in a test method of a Spring test when {@code senders-test} is on the test class path
 * (its {@link SendersTestExecutionListener} tracks the current test on the test's thread).
 * Idle means what {@code whenIdle()} means: no work held at some instant after the call; the scope
 * stays open. Work still running at the deadline is reported and left running; if it still runs
 * after the test method, the listener stops it then (see {@link SendersTestExecutionListener}).
 */
public final class ApplicationScope {

    private static final ThreadLocal<ScopeWatch> CURRENT = new ThreadLocal<>();

    private ApplicationScope() {}

    /**
     * Waits, up to the Spring property {@value SendersTestExecutionListener#IDLE_TIMEOUT_PROPERTY}
     * (default 10 s), until the application scope holds no work.
     *
     * @throws AssertionError if work still runs at the deadline (listed, and left running), or
     *         work spawned since the test method started failed (attached as suppressed)
     * @throws IllegalStateException if called outside a test method of a Spring test
     */
    public static void awaitIdle() {
        check(current().awaitIdle());
    }

    /**
     * {@link #awaitIdle()} with the deadline {@code timeout}.
     *
     * @param timeout how long to wait, on the real clock
     * @throws AssertionError if work still runs at the deadline (listed), or work spawned since
     *         the test method started failed (attached as suppressed)
     * @throws IllegalStateException if called outside a test method of a Spring test
     */
    public static void awaitIdle(Duration timeout) {
        check(current().awaitIdle(Objects.requireNonNull(timeout, "timeout")));
    }

    private static void check(@Nullable AssertionError failure) {
        if (failure != null) {
            throw failure;
        }
    }

    private static ScopeWatch current() {
        ScopeWatch w = CURRENT.get();
        if (w == null) {
            throw new IllegalStateException("ApplicationScope.awaitIdle() works on the thread of a Spring test method, with "
                    + "senders-test, the starter's scope and Spring's TestContext framework present (and "
                    + SendersTestExecutionListener.ENABLED_PROPERTY + " not false); elsewhere wait with "
                    + "Senders.syncWait(scope.whenIdle(), timeout)");
        }
        return w;
    }

    static void enter(ScopeWatch watch) {
        CURRENT.set(watch);
    }

    static void leave(ScopeWatch watch) {
        if (CURRENT.get() == watch) {
            CURRENT.remove();
        }
    }
}
