package dev.senders.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.senders.scope.SpawnDecorator;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.MDC;

/**
 * {@link MdcSpawnDecorator} carries the spawning thread's MDC at the cost of what it carries: an
 * empty MDC is captured as nothing (one shared decoration), an install over an equal MDC writes
 * nothing, Logback's read-only map is shared instead of copied, and no request's keys leak into
 * another request's work.
 */
@SuppressWarnings("try") // the installs are closed by try-with-resources, unread
class MdcSpawnDecoratorTest {

    private final MdcSpawnDecorator decorator = new MdcSpawnDecorator();

    @AfterEach
    void clear() {
        MDC.clear();
    }

    @Test
    void anEmptyMdc_isCapturedAsNothing_oneDecorationSharedByEverySpawn() {
        MDC.clear();
        assertThat(decorator.decorate("app", null)).isSameAs(decorator.decorate("app", "audit"));
    }

    @Test
    void theSharedEmptyDecoration_writesNothingOnAnEmptyThread() {
        SpawnDecorator.Decoration empty = decorator.decorate("app", null);
        assertThat(empty.install()).isSameAs(SpawnDecorator.Installed.NOTHING);
    }

    @Test
    void anEmptyCapture_clearsAThreadCarryingAnotherRequestsKeys_andPutsThemBack() {
        SpawnDecorator.Decoration empty = decorator.decorate("app", null);
        MDC.put("request", "other");
        try (SpawnDecorator.Installed installed = empty.install()) {
            assertThat(MDC.getCopyOfContextMap()).as("no leak of another request's keys").isNullOrEmpty();
        }
        assertThat(MDC.get("request")).isEqualTo("other");
    }

    @Test
    void installingOverTheSameMdc_writesNothing() {
        MDC.put("traceId", "t1");
        SpawnDecorator.Decoration carried = decorator.decorate("app", null);
        Map<String, String> before = MdcAccess.INSTANCE.current();
        assertThat(carried.install()).isSameAs(SpawnDecorator.Installed.NOTHING);
        assertThat(MdcAccess.INSTANCE.current()).as("the thread's map was not replaced").isSameAs(before);
    }

    @Test
    void installingOverAnEqualMdc_writesNothing() {
        MDC.put("traceId", "t1");
        SpawnDecorator.Decoration carried = decorator.decorate("app", null);
        MDC.setContextMap(Map.of("traceId", "t1"));                  // equal, another map
        assertThat(carried.install()).isSameAs(SpawnDecorator.Installed.NOTHING);
    }

    @Test
    void withLogback_theCaptureIsLogbacksReadOnlyMap_sharedNotCopied() {
        assertThat(MdcAccess.logbackReadOnlyMap(MDC.getMDCAdapter())).as("Logback 1.5 is the test backend").isTrue();
        MDC.put("traceId", "t1");
        assertThat(MdcAccess.INSTANCE.current()).isSameAs(MdcAccess.INSTANCE.current());
    }

    @Test
    void theCapturedMdcIsSetOnAnotherThread_andThatThreadsOwnIsPutBack() throws Exception {
        MDC.put("traceId", "t1");
        MDC.put("user", "ann");
        SpawnDecorator.Decoration carried = decorator.decorate("app", null);
        MDC.clear();
        CompletableFuture.runAsync(() -> {
            MDC.put("pool", "own");
            try (SpawnDecorator.Installed installed = carried.install()) {
                assertThat(MDC.getCopyOfContextMap()).isEqualTo(Map.of("traceId", "t1", "user", "ann"));
            }
            assertThat(MDC.getCopyOfContextMap()).isEqualTo(Map.of("pool", "own"));
            MDC.clear();
        }).get();
    }

    @Test
    void aKeyPutAfterTheSpawn_doesNotReachTheCapture() throws Exception {
        MDC.put("traceId", "t1");
        SpawnDecorator.Decoration carried = decorator.decorate("app", null);
        MDC.put("late", "x");
        CompletableFuture.runAsync(() -> {
            try (SpawnDecorator.Installed installed = carried.install()) {
                assertThat(MDC.getCopyOfContextMap()).isEqualTo(Map.of("traceId", "t1"));
            }
        }).get();
    }
}
