package dev.senders.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.senders.spring.boot.ScopeSpawner;
import io.micrometer.context.ContextSnapshot;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import reactor.core.publisher.Hooks;
import reactor.core.publisher.Mono;

/** One startup line says what keeps the request's context from spawned work; none when nothing does. */
@ExtendWith(OutputCaptureExtension.class)
class ContextPropagationStartupCheckTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(SendersScopeAutoConfiguration.class,
                    SendersReactorAutoConfiguration.class, SendersContextPropagationCheckAutoConfiguration.class))
            .withPropertyValues("senders.scope.name=orders");

    @AfterEach
    void automaticPropagationOff() {
        Hooks.disableAutomaticContextPropagation();
    }

    @Test
    void withoutTheContextPropagationLibrary_theLineNamesIt(CapturedOutput output) {
        runner.withClassLoader(new FilteredClassLoader(ContextSnapshot.class)).run(context ->
                assertThat(context).hasSingleBean(ScopeSpawner.class));
        assertThat(output.getOut()).containsOnlyOnce("Work spawned into scope 'orders' does not carry the spawning"
                + " request's MDC and trace: io.micrometer:context-propagation is not on the class path");
    }

    @Test
    void reactorWithoutAutomaticPropagation_theLineNamesTheProperty(CapturedOutput output) {
        runner.run(context -> assertThat(context).hasSingleBean(ScopeSpawner.class));
        assertThat(output.getOut()).containsOnlyOnce("Reactor work spawned into scope 'orders' has the spawning"
                + " request's MDC and trace where it starts and completes, but not after it moves to another"
                + " thread: set spring.reactor.context-propagation=auto");
    }

    @Test
    void withAutomaticPropagation_orWithoutReactor_orSwitchedOff_thereIsNoLine(CapturedOutput output) {
        Hooks.enableAutomaticContextPropagation();
        runner.run(context -> assertThat(context).hasSingleBean(ContextPropagationStartupCheck.class));
        Hooks.disableAutomaticContextPropagation();
        runner.withClassLoader(new FilteredClassLoader(Mono.class)).run(context ->
                assertThat(context).hasSingleBean(ContextPropagationStartupCheck.class));
        runner.withPropertyValues("senders.scope.context-propagation=false").run(context ->
                assertThat(context).doesNotHaveBean(ContextPropagationStartupCheck.class));
        assertThat(output.getOut()).doesNotContain("spawned into scope 'orders'");
    }
}
