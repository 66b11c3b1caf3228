package dev.senders.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.senders.spring.boot.ScopeReport;
import dev.senders.spring.boot.SendersScopeProperties;
import dev.senders.spring.boot.actuate.SendersEndpoint;
import org.junit.jupiter.api.Test;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.beans.factory.aot.AotServices;

/** Everything the starter reads or writes reflectively has a hint, and the registrar is found by Spring AOT. */
class SendersRuntimeHintsTest {

    @Test
    void theRegistrarIsRegisteredInAotFactories() {
        assertThat(AotServices.factories().load(RuntimeHintsRegistrar.class))
                .anyMatch(SendersRuntimeHints.class::isInstance);
    }

    @Test
    void theEndpointsJson_thePropertiesBinding_andTheFailureAnalyzerHaveReflectionHints() throws Exception {
        RuntimeHints hints = new RuntimeHints();
        new SendersRuntimeHints().registerHints(hints, getClass().getClassLoader());
        for (Class<?> json : new Class<?>[] { SendersEndpoint.ScopeDescriptor.class,
                SendersEndpoint.ShutdownSettings.class, ScopeReport.class, ScopeReport.Work.class }) {
            assertThat(RuntimeHintsPredicates.reflection().onType(json)).as(json.getName()).accepts(hints);
        }
        assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(ScopeReport.class.getMethod("spawned")))
                .as("record accessors, which Jackson calls").accepts(hints);
        assertThat(RuntimeHintsPredicates.reflection().onType(SendersScopeProperties.class)).accepts(hints);
        assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(
                SendersScopeProperties.class.getMethod("setName", String.class))).as("the binder's setter").accepts(hints);
        assertThat(RuntimeHintsPredicates.reflection().onType(MissingSpawnerFailureAnalyzer.class)).accepts(hints);
    }
}
