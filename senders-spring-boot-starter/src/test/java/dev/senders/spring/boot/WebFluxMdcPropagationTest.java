package dev.senders.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.senders.Senders;
import dev.senders.spring.boot.webapp.ResultStore;
import dev.senders.spring.boot.webapp.WorkApp;
import io.micrometer.context.ContextRegistry;
import io.micrometer.context.integration.Slf4jThreadLocalAccessor;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import reactor.core.publisher.Hooks;

/**
 * An MDC value a WebFlux handler sets reaches the work it spawns: with only the context-propagation
 * library on the class path, where the work starts and where it completes (its failure's log line),
 * and a startup line names what thread hops need; with the README's set-up, after thread hops too.
 */
@ExtendWith(OutputCaptureExtension.class)
class WebFluxMdcPropagationTest {

    @AfterEach
    void resetGlobalState() {
        ContextRegistry.getInstance().removeThreadLocalAccessor(Slf4jThreadLocalAccessor.KEY);
        Hooks.disableAutomaticContextPropagation();
    }

    private static String run(WorkApp app) throws Exception {
        ScopeSpawner spawner = app.bean(ScopeSpawner.class);
        ResultStore store = app.bean(ResultStore.class);
        try {
            assertThat(app.post("/mdc/order-5", null).status()).isEqualTo(202);
            Senders.syncWait(spawner.scope().whenIdle(), Duration.ofSeconds(10));   // the work ended (failed)
            return store.results.get("order-5");
        } finally {
            app.closeAsync().get(20, TimeUnit.SECONDS);
        }
    }

    @Test
    void withNoSetUp_theHandlersMdcIsInTheWorkWhereItStarts_andOnItsFailureLine_andTheStartupLineSaysWhatHopsNeed(
            CapturedOutput output) throws Exception {
        String seen = run(WorkApp.start());
        assertThat(seen).as("atStart|afterHop").isEqualTo("order-5|null");
        assertThat(output.getOut())
                .containsOnlyOnce("ERROR SpawnErrorLogger [order-5] Work 'store-order-5' spawned into scope"
                        + " 'application' failed")
                .containsOnlyOnce("set spring.reactor.context-propagation=auto");
    }

    @Test
    void withTheReadmesSetUp_theHandlersMdcIsSeenAfterThreadHopsToo_andThereIsNoStartupLine(CapturedOutput output)
            throws Exception {
        ContextRegistry.getInstance().registerThreadLocalAccessor(new Slf4jThreadLocalAccessor("orderId"));
        String seen = run(WorkApp.start("spring.reactor.context-propagation=auto"));
        assertThat(seen).as("atStart|afterHop").isEqualTo("order-5|order-5");
        assertThat(output.getOut())
                .containsOnlyOnce("ERROR SpawnErrorLogger [order-5] Work 'store-order-5' spawned into scope"
                        + " 'application' failed")
                .doesNotContain("spring.reactor.context-propagation=auto");
    }
}
