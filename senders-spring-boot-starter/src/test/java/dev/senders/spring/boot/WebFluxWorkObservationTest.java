package dev.senders.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.senders.spring.boot.webapp.WorkApp;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Hooks;

/**
 * In a real WebFlux app with Spring Boot's {@code ObservationRegistry} and
 * {@code spring.reactor.context-propagation=auto}, named work spawned by a handler is a
 * {@code senders.work} observation whose parent is the request's {@code http.server.requests}
 * observation.
 */
class WebFluxWorkObservationTest {

    @AfterEach
    void automaticPropagationOff() {
        Hooks.disableAutomaticContextPropagation();     // set by spring.reactor.context-propagation=auto
    }

    /** Keeps every observation context that stops. */
    static final class Stopped implements ObservationHandler<Observation.Context> {
        final List<Observation.Context> contexts = new CopyOnWriteArrayList<>();

        @Override
        public boolean supportsContext(Observation.Context context) {
            return true;
        }

        @Override
        public void onStop(Observation.Context context) {
            contexts.add(context);
        }
    }

    @Test
    void namedWorkSpawnedByAHandlerIsAChildOfTheRequestsObservation() throws Exception {
        WorkApp app = WorkApp.start("spring.reactor.context-propagation=auto", "senders.scope.shutdown.grace=100ms");
        Stopped stopped = new Stopped();
        try {
            app.bean(ObservationRegistry.class).observationConfig().observationHandler(stopped);
            assertThat(app.post("/hang/o-1", null).status()).isEqualTo(202);
        } finally {
            app.closeAsync().get(60, TimeUnit.SECONDS);           // the hanging work is stopped at shutdown
        }
        Observation.Context work = stopped.contexts.stream().filter(c -> "senders.work".equals(c.getName()))
                .findFirst().orElseThrow(() -> new AssertionError("no senders.work in " + stopped.contexts));
        assertThat(work.getLowCardinalityKeyValue("work").getValue()).isEqualTo("hang-o-1");
        assertThat(work.getLowCardinalityKeyValue("outcome").getValue()).isEqualTo("stopped");
        assertThat(work.getParentObservation()).as("the request's observation").isNotNull();
        assertThat(work.getParentObservation().getContextView().getName()).isEqualTo("http.server.requests");
    }
}
