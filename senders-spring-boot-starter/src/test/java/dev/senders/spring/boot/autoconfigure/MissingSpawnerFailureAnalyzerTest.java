package dev.senders.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.senders.reactor.ReactorSenders;
import dev.senders.rxjava3.RxSenders;
import dev.senders.spring.boot.ReactorScopeSpawner;
import dev.senders.spring.boot.RxScopeSpawner;
import io.reactivex.rxjava3.core.Completable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.io.DefaultResourceLoader;
import reactor.core.publisher.Mono;

/**
 * An application that injects a spawner whose library is missing fails at startup with an
 * analysis naming the missing artifact and the dependency to add.
 */
@ExtendWith(OutputCaptureExtension.class)
class MissingSpawnerFailureAnalyzerTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(SendersScopeAutoConfiguration.class,
                    SendersReactorAutoConfiguration.class, SendersRxJavaAutoConfiguration.class));

    @Configuration(proxyBeanMethods = false)
    static class NeedsReactorSpawner {
        @Bean
        String handler(ReactorScopeSpawner spawner) {
            return "handler";
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class NeedsRxSpawner {
        @Bean
        String handler(RxScopeSpawner spawner) {
            return "handler";
        }
    }

    @Configuration(proxyBeanMethods = false)
    @EnableAutoConfiguration
    static class WebFluxStyleApp {
        @Bean
        String handler(ReactorScopeSpawner spawner) {
            return "handler";
        }
    }

    private FailureAnalysis analyze(Class<?> userConfig, FilteredClassLoader loader) {
        Throwable[] failure = new Throwable[1];
        runner.withClassLoader(loader).withUserConfiguration(userConfig)
                .run(context -> failure[0] = context.getStartupFailure());
        assertThat(failure[0]).as("startup failure").isNotNull();
        DefaultListableBeanFactory beanFactory = new DefaultListableBeanFactory();
        beanFactory.setBeanClassLoader(loader);
        return new MissingSpawnerFailureAnalyzer(beanFactory).analyze(failure[0]);
    }

    @Test
    void withoutTheReactorAdapter_theAnalysisNamesReactorAdapter_andTheDependencyToAdd() {
        FailureAnalysis analysis = analyze(NeedsReactorSpawner.class, new FilteredClassLoader(ReactorSenders.class));
        assertThat(analysis).isNotNull();
        assertThat(analysis.getDescription())
                .contains("ReactorScopeSpawner", "dev.senders:reactor-adapter is not")
                .doesNotContain("io.projectreactor:reactor-core is not");
        assertThat(analysis.getAction()).contains("<groupId>dev.senders</groupId>",
                "<artifactId>reactor-adapter</artifactId>", "implementation 'dev.senders:reactor-adapter'")
                .doesNotContain("<artifactId>reactor-core</artifactId>");
    }

    @Test
    void withoutReactorItself_theAnalysisNamesReactorCore() {
        FailureAnalysis analysis = analyze(NeedsReactorSpawner.class, new FilteredClassLoader(Mono.class));
        assertThat(analysis).isNotNull();
        assertThat(analysis.getDescription()).contains("io.projectreactor:reactor-core is not");
        assertThat(analysis.getAction()).contains("<groupId>io.projectreactor</groupId>",
                "<artifactId>reactor-core</artifactId>").doesNotContain("reactor-adapter</artifactId>");
    }

    @Test
    void withoutTheRxJavaAdapterOrRxJava_theAnalysisNamesBoth() {
        FailureAnalysis analysis = analyze(NeedsRxSpawner.class,
                new FilteredClassLoader(RxSenders.class, Completable.class));
        assertThat(analysis).isNotNull();
        assertThat(analysis.getDescription()).contains("RxScopeSpawner",
                "io.reactivex.rxjava3:rxjava and dev.senders:rxjava-adapter are not");
        assertThat(analysis.getAction()).contains("<artifactId>rxjava</artifactId>",
                "<artifactId>rxjava-adapter</artifactId>");
    }

    @Test
    void aSpawnerMissingForAnotherReason_isLeftToSpringBootsAnalysis() {
        Throwable[] failure = new Throwable[1];
        new ApplicationContextRunner().withUserConfiguration(NeedsReactorSpawner.class)   // no auto-configuration
                .run(context -> failure[0] = context.getStartupFailure());
        assertThat(failure[0]).isNotNull();
        assertThat(new MissingSpawnerFailureAnalyzer(new DefaultListableBeanFactory()).analyze(failure[0])).isNull();
    }

    @Test
    void aSpringApplicationWithoutTheAdapter_failsToStartWithTheAnalysisInItsLog(CapturedOutput output) {
        SpringApplication application = new SpringApplication(WebFluxStyleApp.class);
        application.setWebApplicationType(WebApplicationType.NONE);
        application.setResourceLoader(new DefaultResourceLoader(new FilteredClassLoader(ReactorSenders.class)));
        assertThatThrownBy(() -> application.run("--spring.main.banner-mode=off")).isNotNull();
        assertThat(output).contains("APPLICATION FAILED TO START", "dev.senders:reactor-adapter is not",
                "<artifactId>reactor-adapter</artifactId>");
    }
}
