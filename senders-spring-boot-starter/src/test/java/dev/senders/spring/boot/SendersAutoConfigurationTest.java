package dev.senders.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.senders.reactor.ReactorScopes;
import dev.senders.reactor.ReactorSenders;
import dev.senders.scope.CountingScope;
import dev.senders.scope.ScopeState;
import dev.senders.scope.SpawnDecorator;
import dev.senders.spring.boot.actuate.SendersEndpoint;
import dev.senders.spring.boot.actuate.SendersHealthIndicator;
import dev.senders.spring.boot.autoconfigure.SendersEndpointAutoConfiguration;
import dev.senders.spring.boot.autoconfigure.SendersHealthContributorAutoConfiguration;
import dev.senders.spring.boot.autoconfigure.SendersMetricsAutoConfiguration;
import dev.senders.spring.boot.autoconfigure.SendersReactorAutoConfiguration;
import dev.senders.spring.boot.autoconfigure.SendersRxJavaAutoConfiguration;
import dev.senders.spring.boot.autoconfigure.SendersScopeAutoConfiguration;
import dev.senders.spring.boot.metrics.SendersScopeMetrics;
import dev.senders.spring.boot.webapp.PhaseZeroResource;
import dev.senders.scope.ShutdownReport;
import dev.senders.spring.boot.webapp.ResultStore;
import io.micrometer.context.ContextRegistry;
import io.micrometer.context.ContextSnapshot;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.reactivex.rxjava3.core.Completable;
import io.reactivex.rxjava3.core.Flowable;
import io.reactivex.rxjava3.core.Maybe;
import io.reactivex.rxjava3.core.Observable;
import io.reactivex.rxjava3.core.Single;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.context.LifecycleAutoConfiguration;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import reactor.core.publisher.Mono;

/**
 * The auto-configuration's behaviour without a web server: what it defines, what backs off, what
 * an application's own beans replace, and what the scope does at shutdown.
 */
@ExtendWith(OutputCaptureExtension.class)
class SendersAutoConfigurationTest {

    static final ThreadLocal<String> REQUEST_ID = new ThreadLocal<>();

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(SendersScopeAutoConfiguration.class,
                    SendersReactorAutoConfiguration.class, SendersRxJavaAutoConfiguration.class,
                    SendersMetricsAutoConfiguration.class, SendersHealthContributorAutoConfiguration.class,
                    SendersEndpointAutoConfiguration.class));

    @BeforeAll
    static void registerRequestId() {
        ContextRegistry.getInstance().registerThreadLocalAccessor("test.requestId", REQUEST_ID::get,
                REQUEST_ID::set, REQUEST_ID::remove);
    }

    @AfterAll
    static void unregisterRequestId() {
        ContextRegistry.getInstance().removeThreadLocalAccessor("test.requestId");
    }

    @Test
    void spawnedWorkIsJoinedWhenTheContextCloses() {
        AtomicBoolean done = new AtomicBoolean();
        runner.run(context -> {
            ScopeSpawner spawner = context.getBean(ScopeSpawner.class);
            assertThat(spawner.scope()).isSameAs(context.getBean(CountingScope.class));
            assertThat(spawner.spawn(TestWork.later(300, () -> done.set(true)))).isTrue();
            context.close();
            assertThat(done).as("close() returned only after the work ended").isTrue();
            assertThat(spawner.scope().state()).isEqualTo(ScopeState.JOINED);
            assertThat(spawner.report()).extracting(ScopeReport::name, r -> r.spawned().started(), r -> r.spawned().completed())
                    .containsExactly("application", 1L, 1L);
        });
    }

    @Test
    void anApplicationsOwnCountingScopeReplacesOurs_keepsItsHandler_andIsTheOneShutDown(CapturedOutput output) {
        List<Throwable> errors = new CopyOnWriteArrayList<>();
        CountingScope own = new CountingScope(errors::add);
        runner.withBean(CountingScope.class, () -> own).run(context -> {
            assertThat(context).hasSingleBean(CountingScope.class);
            ScopeSpawner spawner = context.getBean(ScopeSpawner.class);
            assertThat(spawner.scope()).isSameAs(own);
            assertThat(spawner.spawn(TestWork.failingLater(50, "boom in own scope"))).isTrue();
            context.close();
        });
        assertThat(own.state()).isEqualTo(ScopeState.JOINED);
        assertThat(errors).singleElement().extracting(Throwable::getMessage).isEqualTo("boom in own scope");
        assertThat(output).doesNotContain("Work spawned into scope");
    }

    @Test
    void theReactorSpawnerBacksOffWithoutReactor_theRestStillWorks() {
        runner.withClassLoader(new FilteredClassLoader(Mono.class)).run(context -> {
            assertThat(context).doesNotHaveBean(ReactorScopeSpawner.class).hasSingleBean(RxScopeSpawner.class);
            assertThat(context.getBean(ScopeSpawner.class).spawn(TestWork.later(0, () -> { }))).isTrue();
        });
    }

    @Test
    void theRxJavaSpawnerBacksOffWithoutRxJava_theRestStillWorks() {
        runner.withClassLoader(new FilteredClassLoader(Completable.class)).run(context -> {
            assertThat(context).doesNotHaveBean(RxScopeSpawner.class).hasSingleBean(ReactorScopeSpawner.class);
            assertThat(context.getBean(ReactorScopeSpawner.class).spawn(Mono.empty())).isTrue();
        });
    }

    @Test
    void contextPropagationBacksOffWithoutTheLibrary() {
        runner.withClassLoader(new FilteredClassLoader(ContextSnapshot.class)).run(context -> {
            assertThat(context).doesNotHaveBean(MdcSpawnDecorator.class).doesNotHaveBean(ContextSnapshotSpawnDecorator.class);
            ScopeSpawner spawner = context.getBean(ScopeSpawner.class);
            assertThat(spawner.decorator()).isSameAs(SpawnDecorator.NONE);
            assertThat(spawner.spawn(TestWork.later(0, () -> { }))).isTrue();
        });
    }

    @Test
    void theSpawningThreadsContextIsInstalledWhereTheWorkCompletes_unlessSwitchedOff() {
        assertThat(requestIdSeenByTheErrorHandler(runner)).isEqualTo("req-1");
        assertThat(requestIdSeenByTheErrorHandler(runner.withPropertyValues("senders.scope.context-propagation=false")))
                .isNull();
    }

    /** The error handler runs on the thread that fails the work, not the one that spawned it. */
    private static String requestIdSeenByTheErrorHandler(ApplicationContextRunner runner) {
        List<String> seen = new CopyOnWriteArrayList<>();
        List<String> threads = new CopyOnWriteArrayList<>();
        CountingScope scope = new CountingScope(e -> {
            seen.add(String.valueOf(REQUEST_ID.get()));
            threads.add(Thread.currentThread().getName());
        });
        runner.withBean(CountingScope.class, () -> scope).run(context -> {
            REQUEST_ID.set("req-1");
            try {
                context.getBean(ScopeSpawner.class).spawn(TestWork.failingLater(50, "fails elsewhere"));
            } finally {
                REQUEST_ID.remove();
            }
            context.close();
        });
        assertThat(threads).singleElement().isNotEqualTo(Thread.currentThread().getName());
        String s = seen.get(0);
        return s.equals("null") ? null : s;
    }

    @Test
    void metricsBackOffWithoutMicrometer() {
        runner.withClassLoader(new FilteredClassLoader(MeterRegistry.class)).run(context -> {
            assertThat(context).hasNotFailed().doesNotHaveBean(SendersScopeMetrics.class);
            assertThat(context.getBean(ScopeSpawner.class).spawn(TestWork.later(0, () -> { }))).isTrue();
        });
    }

    @Test
    void healthAndTheEndpointBackOffWithoutActuator_orWhenSwitchedOff() {
        runner.withClassLoader(new FilteredClassLoader(HealthIndicator.class, Endpoint.class)).run(context -> {
            assertThat(context).hasNotFailed().doesNotHaveBean(SendersHealthIndicator.class)
                    .doesNotHaveBean(SendersEndpoint.class);
            assertThat(context.getBean(ScopeSpawner.class).spawn(TestWork.later(0, () -> { }))).isTrue();
        });
        runner.withPropertyValues("management.health.senders.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean(SendersHealthIndicator.class));
    }

    @Test
    void aNegativeGraceFailsStartup_namingTheProperty() {
        runner.withPropertyValues("senders.scope.shutdown.grace=-1s").run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).rootCause()
                    .hasMessageContaining("senders.scope.shutdown.grace must be zero or positive, was PT-1S");
        });
    }

    @Test
    void spawnsAfterShutdownAreRefused_counted_andNeverStart() {
        runner.run(context -> {
            context.getBean(ScopeShutdown.class).shutdown().toCompletableFuture().get(5, TimeUnit.SECONDS);
            AtomicBoolean connected = new AtomicBoolean();
            AtomicBoolean subscribed = new AtomicBoolean();
            assertThat(context.getBean(ScopeSpawner.class).spawn(receiver -> {
                connected.set(true);
                return () -> receiver.setValue(null);
            })).isFalse();
            assertThat(context.getBean(ReactorScopeSpawner.class)
                    .spawn(Mono.fromRunnable(() -> { }).doOnSubscribe(s -> subscribed.set(true)))).isFalse();
            assertThat(context.getBean(RxScopeSpawner.class).spawn(Completable.complete())).isFalse();
            assertThat(connected).isFalse();
            assertThat(subscribed).isFalse();
            assertThat(context.getBean(ScopeSpawner.class).report())
                    .extracting(r -> r.spawned().started(), r -> r.spawned().refused()).containsExactly(0L, 3L);
        });
    }

    @Test
    void aSpawnRefusedThroughTheScopesOwnTokenIsCountedToo() {
        runner.run(context -> {
            ScopeSpawner spawner = context.getBean(ScopeSpawner.class);
            context.getBean(ScopeShutdown.class).shutdown().toCompletableFuture().get(5, TimeUnit.SECONDS);
            assertThat(ReactorScopes.spawn(Mono.empty(), spawner.scope().getToken())).isSameAs(ReactorScopes.REFUSED);
            assertThat(spawner.report().scopeRefused()).isEqualTo(1);
        });
    }

    @Test
    void theScopeBeanHasTheConfiguredName_andEachSpawnerListsNamedWorkWhileItRuns() {
        runner.withPropertyValues("senders.scope.name=jobs").run(context -> {
            ScopeSpawner spawner = context.getBean(ScopeSpawner.class);
            assertThat(spawner.scope().name()).isEqualTo("jobs");
            assertThat(spawner.spawn(ReactorSenders.fromPublisherIgnoreElements(Mono.never()), "sender-job")).isTrue();
            assertThat(context.getBean(ReactorScopeSpawner.class).spawn(Mono.never(), "reactor-job")).isTrue();
            assertThat(context.getBean(RxScopeSpawner.class).spawn(Completable.never(), "rx-job")).isTrue();
            assertThat(context.getBean(RxScopeSpawner.class).spawn(Flowable.never())).isTrue();
            ScopeReport report = spawner.report();
            assertThat(report.outstanding()).extracting(ScopeReport.Work::name)
                    .containsExactlyInAnyOrder("sender-job", "reactor-job", "rx-job");
            assertThat(report.active()).isEqualTo(4);
            assertThat(report.summary()).extracting(ScopeReport.Summary::listed, ScopeReport.Summary::unlisted)
                    .containsExactly(3L, 1L);
            spawner.scope().requestStop();
        });
    }

    @Test
    void anErrorOfSpawnedWorkIsLoggedOnce_withTheScopeName(CapturedOutput output) {
        runner.withPropertyValues("senders.scope.name=jobs").run(context -> {
            ScopeSpawner spawner = context.getBean(ScopeSpawner.class);
            spawner.spawn(TestWork.failingLater(20, "nightly export failed"));
            context.close();
            assertThat(spawner.report().spawned().failed()).isEqualTo(1);
        });
        assertThat(output.getOut()).containsOnlyOnce("Work spawned into scope 'jobs' failed")
                .containsOnlyOnce("java.lang.IllegalStateException: nightly export failed");
        assertThat(output.getAll()).doesNotContain("Exception in thread");
    }

    @Test
    void shutdownWaitsPastSpringsPhaseTimeout_soLowerPhasesAndBeansOutliveTheWork() {
        runner.withConfiguration(AutoConfigurations.of(LifecycleAutoConfiguration.class))
                .withPropertyValues("spring.lifecycle.timeout-per-shutdown-phase=100ms",
                        "senders.scope.shutdown.grace=5s")
                .withBean(PhaseZeroResource.class, PhaseZeroResource::new)
                .withBean(ResultStore.class, ResultStore::new)
                .run(context -> {
                    PhaseZeroResource resource = context.getBean(PhaseZeroResource.class);
                    ResultStore store = context.getBean(ResultStore.class);
                    context.getBean(ReactorScopeSpawner.class).spawn(Mono.delay(Duration.ofMillis(600))
                            .doOnNext(x -> {
                                resource.use();
                                store.put("report", "written");
                            }));
                    context.close();
                    assertThat(resource.uses).as("used while still running").hasValue(1);
                    assertThat(resource.lateUses).hasValue(0);
                    assertThat(store.results).containsEntry("report", "written");
                    assertThat(store.isClosed()).isTrue();
                });
    }

    @Test
    void theShutdownHappensOnce_howeverManyCallersAskAtTheSameTime() {
        List<ShutdownReport> results = new CopyOnWriteArrayList<>();
        runner.withBean(ScopeShutdown.Listener.class, () -> results::add)
                .withPropertyValues("senders.scope.shutdown.grace=100ms").run(context -> {
                    ScopeShutdown shutdown = context.getBean(ScopeShutdown.class);
                    context.getBean(ReactorScopeSpawner.class).spawn(Mono.never());
                    AtomicInteger callbacks = new AtomicInteger();
                    java.util.concurrent.CountDownLatch bothCalledBack = new java.util.concurrent.CountDownLatch(2);
                    Runnable callback = () -> {
                        callbacks.incrementAndGet();
                        bothCalledBack.countDown();
                    };
                    List<Thread> callers = List.of(
                            new Thread(() -> shutdown.stop(callback)),
                            new Thread(() -> shutdown.stop(callback)),
                            new Thread(shutdown::stop),
                            new Thread(shutdown::destroy));
                    callers.forEach(Thread::start);
                    for (Thread t : callers) {
                        t.join(10_000);
                    }
                    context.close();
                    assertThat(results).singleElement().extracting(ShutdownReport::outcome)
                            .isEqualTo(ShutdownReport.Outcome.STOPPED);
                    // the callbacks run on the thread that ends the shutdown, possibly just after the
                    // blocking callers were released: wait for them (bounded), then count them
                    assertThat(bothCalledBack.await(10, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
                    assertThat(callbacks).as("every stop callback ran, once").hasValue(2);
                    assertThat(shutdown.isRunning()).isFalse();
                });
    }

    @Test
    void metersCountTheWork_andTimeTheShutdown() {
        runner.withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class,
                        CompositeMeterRegistryAutoConfiguration.class, SimpleMetricsExportAutoConfiguration.class))
                .withPropertyValues("senders.scope.name=jobs", "senders.scope.shutdown.grace=100ms")
                .run(context -> {
                    MeterRegistry registry = context.getBean(MeterRegistry.class);
                    ReactorScopeSpawner reactor = context.getBean(ReactorScopeSpawner.class);
                    reactor.spawn(Mono.just(1));
                    reactor.spawn(Mono.just(2));
                    reactor.spawn(Mono.error(new IllegalStateException("metered failure")));
                    reactor.spawn(Mono.never());
                    assertThat(count(registry, "senders.scope.spawned")).isEqualTo(4);
                    assertThat(registry.get("senders.scope.spawned").tags("scope", "jobs", "kind", "spawned")
                            .functionCounter().count()).as("counted by kind").isEqualTo(4);
                    assertThat(count(registry, "senders.scope.completed")).isEqualTo(2);
                    assertThat(count(registry, "senders.scope.failed")).isEqualTo(1);
                    assertThat(registry.get("senders.scope.active").tag("scope", "jobs").gauge().value()).isEqualTo(1);

                    context.close();
                    reactor.spawn(Mono.just(3));

                    assertThat(count(registry, "senders.scope.stopped")).isEqualTo(1);
                    assertThat(registry.get("senders.scope.refused").tags("scope", "jobs", "reason", "closed")
                            .functionCounter().count()).isEqualTo(1);
                    Timer shutdown = registry.get("senders.scope.shutdown").tags("scope", "jobs", "outcome", "stopped")
                            .timer();
                    assertThat(shutdown.count()).isEqualTo(1);
                    assertThat(shutdown.totalTime(TimeUnit.MILLISECONDS)).isGreaterThanOrEqualTo(100);
                });
    }

    /** The meter's count over all its tags besides the scope's (the kinds of work, for the per-kind meters). */
    private static double count(MeterRegistry registry, String name) {
        return registry.get(name).tag("scope", "jobs").functionCounters().stream()
                .mapToDouble(io.micrometer.core.instrument.FunctionCounter::count).sum();
    }

    @Test
    void healthIsUpWhileTheScopeIsOpen_andOutOfServiceOnceItCloses() {
        runner.run(context -> {
            SendersHealthIndicator health = context.getBean(SendersHealthIndicator.class);
            ReactorScopeSpawner reactor = context.getBean(ReactorScopeSpawner.class);
            reactor.spawn(Mono.never());
            Health open = health.health();
            assertThat(open.getStatus()).isEqualTo(Status.UP);
            assertThat(open.getDetails()).containsEntry("scope", "application").containsEntry("state", "OPEN")
                    .containsEntry("active", 1L);

            context.getBean(CountingScope.class).close();
            Health closing = health.health();
            assertThat(closing.getStatus()).isEqualTo(Status.OUT_OF_SERVICE);
            assertThat(closing.getDetails()).containsEntry("state", "CLOSED").containsEntry("active", 1L);

            context.getBean(CountingScope.class).requestStop();
            context.close();
            assertThat(health.health().getStatus()).isEqualTo(Status.OUT_OF_SERVICE);
            assertThat(health.health().getDetails()).containsEntry("state", "JOINED").containsEntry("active", 0L);
        });
    }

    @Test
    void rxJavaSourcesAreSpawnedJoinedAndTheirErrorsHandled() {
        AtomicInteger ran = new AtomicInteger();
        runner.run(context -> {
            RxScopeSpawner rx = context.getBean(RxScopeSpawner.class);
            assertThat(rx.spawn(Completable.timer(200, TimeUnit.MILLISECONDS).doOnComplete(ran::incrementAndGet)))
                    .isTrue();
            assertThat(rx.spawn(Single.fromCallable(ran::incrementAndGet))).isTrue();
            assertThat(rx.spawn(Maybe.empty().doOnComplete(ran::incrementAndGet))).isTrue();
            assertThat(rx.spawn(Flowable.range(1, 3).doOnNext(i -> ran.incrementAndGet()))).isTrue();
            assertThat(rx.spawn(Observable.error(new IllegalStateException("rx failure")))).isTrue();
            context.close();
            assertThat(ran).hasValue(6);
            assertThat(rx.scopeSpawner().report()).extracting(r -> r.spawned().started(),
                    r -> r.spawned().completed(), r -> r.spawned().failed(), ScopeReport::active).containsExactly(5L, 4L, 1L, 0L);
        });
    }

    @Test
    void theEndpointIsDefinedWhenExposed_andReportsTheScopeAndTheShutdownSettings() {
        runner.run(context -> assertThat(context).doesNotHaveBean(SendersEndpoint.class));
        runner.withPropertyValues("management.endpoints.web.exposure.include=senders",
                "senders.scope.shutdown.stop-timeout=2s").run(context -> {
            SendersEndpoint endpoint = context.getBean(SendersEndpoint.class);
            context.getBean(ReactorScopeSpawner.class).spawn(Mono.just(1));
            SendersEndpoint.ScopeDescriptor d = endpoint.scope();
            assertThat(d.scope()).extracting(ScopeReport::state, r -> r.spawned().started(), r -> r.spawned().completed())
                    .containsExactly(ScopeState.OPEN, 1L, 1L);
            assertThat(d.shutdown()).isEqualTo(new SendersEndpoint.ShutdownSettings(ScopeShutdown.PHASE, "PT30S", "PT2S"));
        });
    }

    @Test
    void everyPropertyHasMetadataForIdes() throws Exception {
        String json;
        try (var in = getClass().getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
            json = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }
        List<Map<String, Object>> properties = com.jayway.jsonpath.JsonPath.read(json, "$.properties[?(@.name =~ /senders.*/)]");
        assertThat(properties).extracting(p -> p.get("name")).containsExactlyInAnyOrder("senders.scope.name",
                "senders.scope.context-propagation", "senders.scope.list-limit", "senders.scope.max-outstanding",
                "senders.scope.shutdown.grace",
                "senders.scope.shutdown.stop-timeout", "senders.scope.track-task-executor",
                "senders.scope.track-scheduled-tasks", "senders.scope.fire-and-forget");
        assertThat(properties).allSatisfy(p -> assertThat((String) p.get("description")).isNotBlank());
        assertThat(properties).extracting(p -> p.get("defaultValue")).containsExactlyInAnyOrder("application", true,
                20, null, "30s", "10s", true, true, "off");
    }
}
