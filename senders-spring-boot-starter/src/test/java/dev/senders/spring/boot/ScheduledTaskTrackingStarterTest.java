package dev.senders.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.senders.reactor.ReactorScopes;
import dev.senders.reactor.ScheduledTaskTracking;
import dev.senders.rxjava3.RxScheduledTaskTracking;
import dev.senders.rxjava3.RxScopes;
import dev.senders.scope.ShutdownReport;
import dev.senders.spring.boot.autoconfigure.SendersScheduledTaskTrackingAutoConfiguration;
import dev.senders.spring.boot.autoconfigure.SendersScopeAutoConfiguration;
import dev.senders.testkit.NamingToken;
import dev.senders.testkit.StubbornBody;
import io.reactivex.rxjava3.core.Completable;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.context.LifecycleAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * The starter installs the scheduler hooks while the context runs, so that its shutdown never
 * reports spawned Reactor or RxJava work as ended while the work's code still runs on their
 * schedulers: the shutdown log says ABANDONED and names the work whose body ignored the stop.
 */
@ExtendWith(OutputCaptureExtension.class)
class ScheduledTaskTrackingStarterTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(LifecycleAutoConfiguration.class,
                    SendersScheduledTaskTrackingAutoConfiguration.class, SendersScopeAutoConfiguration.class))
            .withPropertyValues("senders.scope.name=app", "senders.scope.shutdown.grace=50ms",
                    "senders.scope.shutdown.stop-timeout=100ms");

    @Test
    void theHooksAreInstalledWhileTheContextRuns_andRemovedWhenItCloses() {
        runner.run(context -> {
            assertThat(context).getBeanNames(ScheduledTaskHooks.class)
                    .containsExactlyInAnyOrder("sendersReactorScheduledTaskHooks", "sendersRxJavaScheduledTaskHooks");
            assertThat(ScheduledTaskTracking.isInstalled()).isTrue();
            assertThat(RxScheduledTaskTracking.isInstalled()).isTrue();
        });
        assertThat(ScheduledTaskTracking.isInstalled()).isFalse();
        assertThat(RxScheduledTaskTracking.isInstalled()).isFalse();
    }

    @Test
    void thePropertyTurnsThemOff() {
        runner.withPropertyValues("senders.scope.track-scheduled-tasks=false").run(context -> {
            assertThat(context).doesNotHaveBean(ScheduledTaskHooks.class);
            assertThat(ScheduledTaskTracking.isInstalled()).isFalse();
        });
    }

    @Test
    void aUserBeanReplacesTheStartersHook() {
        runner.withBean("sendersReactorScheduledTaskHooks", ScheduledTaskHooks.class,
                () -> new ScheduledTaskHooks("mine", () -> { })).run(context -> {
                    assertThat(context.getBean("sendersReactorScheduledTaskHooks")).hasToString("ScheduledTaskHooks[mine]");
                    assertThat(ScheduledTaskTracking.isInstalled()).isFalse();
                });
    }

    @Test
    void aSpawnedMonoWhoseBodyIgnoresTheStopIsLoggedAbandonedByName_whileItsBodyRuns(CapturedOutput output)
            throws Exception {
        StubbornBody body = new StubbornBody();
        try {
            ShutdownReport report = shutDownWhileRunning(context -> {
                ScopeSpawner spawner = context.getBean(ScopeSpawner.class);
                ReactorScopes.spawn(Mono.fromRunnable(body).subscribeOn(Schedulers.boundedElastic()),
                        new NamingToken(spawner.scope().getToken(), "stubborn-mono"));
                awaitStarted(body);
            }, body);

            assertThat(report.outcome()).isEqualTo(ShutdownReport.Outcome.ABANDONED);
            assertThat(report.stillRunning()).extracting(w -> w.name().orElseThrow()).containsExactly("stubborn-mono");
            String out = output.getOut();
            assertThat(out.substring(out.indexOf("Gave up: scope 'app'")))
                    .containsPattern("\\R  stubborn-mono \\(spawn, running for ");
        } finally {
            body.release();
        }
    }

    @Test
    void aSpawnedCompletableWhoseBodyIgnoresTheStopIsLoggedAbandonedByName_whileItsBodyRuns(CapturedOutput output)
            throws Exception {
        StubbornBody body = new StubbornBody();
        try {
            ShutdownReport report = shutDownWhileRunning(context -> {
                ScopeSpawner spawner = context.getBean(ScopeSpawner.class);
                RxScopes.spawn(Completable.fromRunnable(body).subscribeOn(io.reactivex.rxjava3.schedulers.Schedulers.io()),
                        new NamingToken(spawner.scope().getToken(), "stubborn-completable"));
                awaitStarted(body);
            }, body);

            assertThat(report.outcome()).isEqualTo(ShutdownReport.Outcome.ABANDONED);
            assertThat(report.stillRunning()).extracting(w -> w.name().orElseThrow())
                    .containsExactly("stubborn-completable");
            String out = output.getOut();
            assertThat(out.substring(out.indexOf("Gave up: scope 'app'")))
                    .containsPattern("\\R  stubborn-completable \\(spawn, running for ");
        } finally {
            body.release();
        }
    }

    /**
     * Runs {@code spawn} in a context, closes the context (its shutdown gives up after grace +
     * stop timeout), checks the body still ran when the context had closed, and returns the
     * shutdown's report.
     */
    private ShutdownReport shutDownWhileRunning(ContextConsumer spawn, StubbornBody body) throws Exception {
        AtomicReference<ScopeShutdown> shutdown = new AtomicReference<>();
        runner.run(context -> {
            spawn.accept(context);
            shutdown.set(context.getBean(ScopeShutdown.class));
        }); // closes the context: the scope's shutdown runs in its lifecycle stop
        assertThat(body.running()).as("the context closed while the body runs").isTrue();
        return shutdown.get().shutdown().toCompletableFuture().get(); // completed when the context closed
    }

    private static void awaitStarted(StubbornBody body) {
        try {
            body.awaitStarted();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    @FunctionalInterface
    interface ContextConsumer {
        void accept(ConfigurableApplicationContext context) throws Exception;
    }
}
