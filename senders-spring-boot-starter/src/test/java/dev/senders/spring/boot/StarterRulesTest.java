package dev.senders.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.senders.scope.SpawnDecorator;
import dev.senders.spring.boot.autoconfigure.SendersObservationAutoConfiguration;
import dev.senders.spring.boot.autoconfigure.SendersReactorAutoConfiguration;
import dev.senders.spring.boot.autoconfigure.SendersRxJavaAutoConfiguration;
import dev.senders.spring.boot.autoconfigure.SendersScopeAutoConfiguration;
import dev.senders.spring.boot.autoconfigure.SendersTaskExecutorAutoConfiguration;
import io.reactivex.rxjava3.core.Completable;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscriber;
import org.slf4j.MDC;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.context.LifecycleAutoConfiguration;
import org.springframework.boot.autoconfigure.task.TaskExecutionAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.core.Ordered;
import org.springframework.core.task.TaskExecutor;
import org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor;
import reactor.core.publisher.Mono;

/**
 * The starter's rules for spawned work: one decorator SPI (the starter's decorators and an
 * application's, ordered and composed), one route per kind of work (the Reactor and RxJava spawners
 * go through the adapters' spawn), counts by kind, and reports that say queued or running and what
 * the scope cannot see.
 */
@ExtendWith(OutputCaptureExtension.class)
class StarterRulesTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(SendersScopeAutoConfiguration.class,
                    SendersObservationAutoConfiguration.class, SendersReactorAutoConfiguration.class,
                    SendersRxJavaAutoConfiguration.class));

    /** An application's decorator: records the MDC it sees installed, and every end. */
    static final class AppDecorator implements SpawnDecorator {
        final List<String> seen = new CopyOnWriteArrayList<>();

        @Override
        public Decoration decorate(String scopeName, @Nullable String workName) {
            return new Decoration() {
                @Override
                public Installed install() {
                    seen.add("install " + workName + " mdc=" + MDC.get("request"));
                    return Installed.NOTHING;
                }

                @Override
                public void end(Outcome outcome, @Nullable Throwable error) {
                    seen.add("end " + workName + " " + outcome.tag());
                }
            };
        }
    }

    @Test
    void anApplicationsDecoratorBeanIsAppliedInsideTheStartersContext_toEveryRoute() {
        AppDecorator app = new AppDecorator();
        runner.withBean(AppDecorator.class, () -> app).run(context -> {
            ScopeSpawner spawner = context.getBean(ScopeSpawner.class);
            assertThat(spawner.decorator().toString()).as("the starter's, then the application's, in order")
                    .containsSubsequence("MdcSpawnDecorator", "ContextSnapshotSpawnDecorator", "AppDecorator");
            MDC.put("request", "r-1");
            try {
                assertThat(spawner.spawn(TestWork.later(0, () -> { }), "sender")).isTrue();
                assertThat(context.getBean(ReactorScopeSpawner.class).spawn(Mono.empty(), "reactor")).isTrue();
                assertThat(context.getBean(RxScopeSpawner.class).spawn(Completable.complete(), "rx")).isTrue();
            } finally {
                MDC.clear();
            }
            context.close();
        });
        assertThat(app.seen).contains("install sender mdc=r-1", "end sender value", "install reactor mdc=r-1",
                "end reactor value", "install rx mdc=r-1", "end rx value");
    }

    @Test
    void decoratorBeansAreOrderedByTheirOrder() {
        List<String> order = new CopyOnWriteArrayList<>();
        runner.withPropertyValues("senders.scope.context-propagation=false")
                .withBean("late", SpawnDecorator.class, () -> new Named("late", order, Ordered.LOWEST_PRECEDENCE))
                .withBean("early", SpawnDecorator.class, () -> new Named("early", order, Ordered.HIGHEST_PRECEDENCE))
                .run(context -> {
                    assertThat(context.getBean(ScopeSpawner.class).spawn(TestWork.later(0, () -> { }))).isTrue();
                    context.close();
                });
        assertThat(order).startsWith("early", "late");
    }

    record Named(String name, List<String> order, int rank) implements SpawnDecorator, Ordered {
        @Override
        public Decoration decorate(String scopeName, @Nullable String workName) {
            order.add(name);
            return Decoration.NONE;
        }

        @Override
        public int getOrder() {
            return rank;
        }
    }

    @Test
    void theReactorSpawnerSubscribesThroughTheAdaptersSpawn() {
        AtomicReference<Subscriber<?>> subscriber = new AtomicReference<>();
        Publisher<Object> probe = s -> subscriber.set(s);
        runner.withPropertyValues("senders.scope.context-propagation=false").run(context -> {
            assertThat(context.getBean(ReactorScopeSpawner.class).spawn(probe, "probe")).isTrue();
            assertThat(subscriber.get().toString()).as("ReactorScopes.spawn's own subscriber")
                    .startsWith("ReactorScopes.spawn[");
            context.getBean(ScopeSpawner.class).scope().requestStop();
        });
    }

    @Test
    void executorTasksAreCountedAsExecutorTasks_andATaskNotYetRunIsListedAsQueued(CapturedOutput output)
            throws Exception {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(TaskExecutionAutoConfiguration.class,
                        LifecycleAutoConfiguration.class, SendersScopeAutoConfiguration.class,
                        SendersTaskExecutorAutoConfiguration.class))
                .withPropertyValues("spring.task.execution.pool.core-size=1", "spring.task.execution.pool.max-size=1",
                        "senders.scope.shutdown.grace=100ms", "senders.scope.shutdown.stop-timeout=5s")
                .run(context -> {
                    TaskExecutor executor = context.getBean("applicationTaskExecutor", ThreadPoolTaskExecutor.class);
                    ScopeSpawner spawner = context.getBean(ScopeSpawner.class);
                    CountDownLatch running = new CountDownLatch(1);
                    CountDownLatch release = new CountDownLatch(1);
                    executor.execute(() -> {
                        running.countDown();
                        try {
                            release.await();                  // interrupted by the stop request
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    });
                    executor.execute(() -> { });              // waits for the one thread
                    assertThat(running.await(10, TimeUnit.SECONDS)).isTrue();
                    ScopeReport report = spawner.report();
                    assertThat(report.outstanding()).extracting(ScopeReport.Work::queued).containsExactly(false, true);
                    assertThat(report.executorTasks().started()).isEqualTo(2);
                    assertThat(report.spawned().started()).as("no spawner was used").isZero();
                    assertThat(report.toString()).contains("; executor tasks: 2 started, 0 completed")
                            .as("a kind with nothing started or refused is left out").doesNotContain("spawned:");
                    context.close();                          // past the grace: the running one is interrupted
                });
        String warn = output.getOut().substring(output.getOut().indexOf("the 100 ms grace is over"));
        assertThat(warn).contains("applicationTaskExecutor task (spawn, running for ")
                .contains("applicationTaskExecutor task (spawn, queued for ");
    }

    @Test
    void withNothingActive_theReportSaysWhatTheScopeCannotSee() {
        runner.run(context -> {
            ScopeReport report = context.getBean(ScopeSpawner.class).report();
            assertThat(report.active()).isZero();
            assertThat(report.toString()).contains("0 active, counting only work associated with it (a plain subscribe()")
                    .contains("is not seen, and is not waited for")
                    .endsWith("; nothing handed to it through the starter");
        });
    }

    @Test
    void subscriptionsAreReportedOnceThatKindIsInUse() {
        runner.run(context -> {
            ScopeSpawner spawner = context.getBean(ScopeSpawner.class);
            assertThat(spawner.report().subscriptions()).isNull();
            assertThat(spawner.report().toString()).doesNotContain("subscriptions");
            assertThat(dev.senders.reactor.ReactorScopes.spawn(Mono.empty(), spawner.token(WorkKind.SUBSCRIPTION)))
                    .isNotSameAs(dev.senders.reactor.ReactorScopes.REFUSED);
            ScopeReport report = spawner.report();
            assertThat(report.subscriptions()).extracting(ScopeReport.Counts::started, ScopeReport.Counts::completed)
                    .containsExactly(1L, 1L);
            assertThat(report.toString()).contains("subscriptions: 1 started, 1 completed");
        });
    }

    @Test
    void eachPropertyIsBoundOnce_itsDefaultInTheField() {
        SendersScopeProperties defaults = new SendersScopeProperties();
        org.springframework.mock.env.MockEnvironment env = new org.springframework.mock.env.MockEnvironment();
        SendersScopeProperties bound = SendersScopeProperties.bind(env);
        assertThat(bound.isTrackTaskExecutor()).isEqualTo(defaults.isTrackTaskExecutor()).isTrue();
        assertThat(bound.isContextPropagation()).isEqualTo(defaults.isContextPropagation()).isTrue();
        env.setProperty("senders.scope.track-task-executor", "false");
        env.setProperty("senders.scope.context-propagation", "false");
        assertThat(SendersScopeProperties.bind(env)).extracting(SendersScopeProperties::isTrackTaskExecutor,
                SendersScopeProperties::isContextPropagation).containsExactly(false, false);
        runner.withPropertyValues("senders.scope.context-propagation=false")
                .run(context -> assertThat(context).doesNotHaveBean(MdcSpawnDecorator.class));
    }
}
