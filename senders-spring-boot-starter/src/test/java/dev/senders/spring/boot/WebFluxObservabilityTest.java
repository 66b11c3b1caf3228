package dev.senders.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import com.jayway.jsonpath.JsonPath;
import dev.senders.spring.boot.webapp.MdcTraceIdAccessor;
import dev.senders.spring.boot.webapp.ResultStore;
import dev.senders.spring.boot.webapp.WorkApp;
import io.micrometer.context.ContextRegistry;
import dev.senders.Senders;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import reactor.core.publisher.Hooks;

/**
 * What a WebFlux app sees of its spawned work with no wiring of its own: failures in the log
 * with the work's and the scope's names and the request's trace id, the request's MDC inside the work (on another
 * thread), and the scope's metrics, health and endpoint over HTTP on the app's own port.
 * Reactor's automatic context propagation is on ({@code spring.reactor.context-propagation=auto}),
 * as in an app with Micrometer Tracing.
 */
@ExtendWith(OutputCaptureExtension.class)
class WebFluxObservabilityTest {

    static final MdcTraceIdAccessor TRACE_ID = new MdcTraceIdAccessor();

    @BeforeAll
    static void registerTraceId() {
        ContextRegistry.getInstance().registerThreadLocalAccessor(TRACE_ID);
    }

    @AfterAll
    static void unregisterTraceId() {
        ContextRegistry.getInstance().removeThreadLocalAccessor(MdcTraceIdAccessor.KEY);
        Hooks.disableAutomaticContextPropagation();              // set by spring.reactor.context-propagation=auto
    }

    static WorkApp start(String... more) {
        String[] base = { "spring.reactor.context-propagation=auto", "senders.scope.name=orders" };
        String[] all = new String[base.length + more.length];
        System.arraycopy(base, 0, all, 0, base.length);
        System.arraycopy(more, 0, all, base.length, more.length);
        return WorkApp.start(all);
    }

    @Test
    void namedWorkFailingAfterTheResponseIsLoggedOnce_withItsNameTheScopeNameAndTheRequestsTraceId(
            CapturedOutput output)
            throws Exception {
        WorkApp app = start();
        ScopeSpawner spawner = app.bean(ScopeSpawner.class);
        try {
            assertThat(app.post("/fail/order-7", "trace-7").status()).isEqualTo(202);
            Senders.syncWait(spawner.scope().whenIdle(), Duration.ofSeconds(10));   // the failing work ended
        } finally {
            app.closeAsync().get(20, TimeUnit.SECONDS);
        }
        String line = "ERROR SpawnErrorLogger [trace-7] Work 'audit-order-7' spawned into scope 'orders' failed";
        assertThat(output.getOut()).containsOnlyOnce(line)
                .containsOnlyOnce("java.lang.IllegalStateException: audit write of order order-7 failed");
        assertThat(output.getAll()).doesNotContain("Exception in thread").doesNotContain("onErrorDropped");
        assertThat(spawner.report().spawned().failed()).isEqualTo(1);
    }

    @Test
    void theTraceIdSetByTheRequestIsSeenByTheSpawnedWork_onAnotherThread() throws Exception {
        WorkApp app = start();
        ResultStore store = app.bean(ResultStore.class);
        assertThat(app.post("/slow/order-8?ms=100", "trace-8").status()).isEqualTo(202);
        assertThat(app.post("/slow/order-9?ms=100", null).status()).isEqualTo(202);
        app.closeAsync().get(20, TimeUnit.SECONDS);

        String[] seen = store.results.get("order-8").split("\\|");   // at spawn | in the work | work's thread
        assertThat(seen[0]).as("the request's MDC when it spawned").isEqualTo("trace-8");
        assertThat(seen[1]).as("the MDC inside the work").isEqualTo("trace-8");
        assertThat(seen[2]).as("the work ran on Reactor's timer thread, not the request's").startsWith("parallel-");
        assertThat(store.results.get("order-9")).as("no trace leaks into another request's work")
                .startsWith("null|null|");
    }

    @Test
    @SuppressWarnings("unchecked")
    void metricsHealthAndTheSendersEndpointAreReadOverHttp_andTheEndpointListsStuckNamedWorkWithItsAge() throws Exception {
        WorkApp app = start("management.endpoints.web.exposure.include=health,metrics,senders",
                "management.endpoint.health.show-details=always", "senders.scope.shutdown.grace=100ms");
        try {
            for (int i = 0; i < 3; i++) {
                assertThat(app.post("/slow/m-" + i + "?ms=0", null).status()).isEqualTo(202);
            }
            assertThat(app.post("/fail/m-fail", null).status()).isEqualTo(202);
            // the slow and failing work ended: only the stuck work, spawned next, stays
            Senders.syncWait(app.bean(ScopeSpawner.class).scope().whenIdle(), Duration.ofSeconds(10));
            long beforeHang = System.nanoTime();
            assertThat(app.post("/hang/m-hang", null).status()).isEqualTo(202);
            long afterHang = System.nanoTime();

            assertThat(metric(app, "senders.scope.spawned")).isEqualTo(5.0);
            assertThat(metric(app, "senders.scope.completed")).isEqualTo(3.0);
            assertThat(metric(app, "senders.scope.failed")).isEqualTo(1.0);
            assertThat(metric(app, "senders.scope.stopped")).isEqualTo(0.0);
            assertThat(metric(app, "senders.scope.refused")).isEqualTo(0.0);
            assertThat(metric(app, "senders.scope.active")).isEqualTo(1.0);

            String health = app.get("/actuator/health/senders");
            assertThat((String) JsonPath.read(health, "$.status")).isEqualTo("UP");
            assertThat((String) JsonPath.read(health, "$.details.scope")).isEqualTo("orders");
            assertThat((String) JsonPath.read(health, "$.details.state")).isEqualTo("OPEN");
            assertThat((Integer) JsonPath.read(health, "$.details.active")).isEqualTo(1);

            long beforeGet = System.nanoTime();
            String endpoint = app.get("/actuator/senders");
            long afterGet = System.nanoTime();
            assertThat((List<String>) JsonPath.read(endpoint, "$.scope.outstanding[*].name"))
                    .as("only named work is listed; the stuck one is the only named work still running")
                    .containsExactly("hang-m-hang");
            assertThat((String) JsonPath.read(endpoint, "$.scope.outstanding[0].kind")).isEqualTo("spawn");
            long age = ((Number) JsonPath.read(endpoint, "$.scope.outstanding[0].ageMillis")).longValue();
            assertThat(age).as("its age: from its spawn (during the POST) to the endpoint's read")
                    .isBetween(TimeUnit.NANOSECONDS.toMillis(beforeGet - afterHang),
                            TimeUnit.NANOSECONDS.toMillis(afterGet - beforeHang) + 1);
            assertThat((List<?>) JsonPath.read(endpoint, "$.scope.outstanding[0].spawnSite"))
                    .as("no spawn site without debug capture").isEmpty();
            assertThat((String) JsonPath.read(endpoint, "$.scope.name")).isEqualTo("orders");
            assertThat((String) JsonPath.read(endpoint, "$.scope.state")).isEqualTo("OPEN");
            assertThat((Integer) JsonPath.read(endpoint, "$.scope.active")).isEqualTo(1);
            assertThat((Integer) JsonPath.read(endpoint, "$.scope.spawned.started")).isEqualTo(5);
            assertThat((Boolean) JsonPath.read(endpoint, "$.scope.outstanding[0].queued")).isFalse();
            assertThat((String) JsonPath.read(endpoint, "$.shutdown.grace")).isEqualTo("PT0.1S");
            assertThat((String) JsonPath.read(endpoint, "$.shutdown.stopTimeout")).isEqualTo("PT10S");
            assertThat((Integer) JsonPath.read(endpoint, "$.shutdown.phase")).isEqualTo(ScopeShutdown.PHASE);
        } finally {
            app.closeAsync().get(20, TimeUnit.SECONDS);
        }
    }

    private static double metric(WorkApp app, String name) {
        String json = app.get("/actuator/metrics/" + name + "?tag=scope:orders");
        return ((Number) JsonPath.read(json, "$.measurements[0].value")).doubleValue();
    }
}
