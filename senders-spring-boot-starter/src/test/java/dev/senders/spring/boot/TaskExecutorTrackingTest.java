package dev.senders.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.senders.Senders;
import dev.senders.scope.CountingScope;
import dev.senders.scope.OutstandingWork;
import dev.senders.spring.boot.autoconfigure.SendersObservationAutoConfiguration;
import dev.senders.spring.boot.autoconfigure.SendersScopeAutoConfiguration;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistryAssert;
import dev.senders.spring.boot.autoconfigure.SendersTaskExecutorAutoConfiguration;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.context.LifecycleAutoConfiguration;
import org.springframework.boot.autoconfigure.task.TaskExecutionAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.task.AsyncTaskExecutor;
import org.springframework.core.task.SimpleAsyncTaskExecutor;
import org.springframework.core.task.TaskExecutor;
import org.springframework.aop.interceptor.AsyncUncaughtExceptionHandler;
import org.springframework.scheduling.annotation.Async;
import org.springframework.scheduling.annotation.AsyncConfigurer;
import org.springframework.scheduling.annotation.EnableAsync;
import org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor;

/**
 * Spring Boot's task executor (and executors marked {@link ScopeTracked}) in the application scope:
 * {@code @Async} work and injected {@code TaskExecutor}s are joined at shutdown, interrupted past
 * the grace, listed by name and counted.
 */
@ExtendWith(OutputCaptureExtension.class)
class TaskExecutorTrackingTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(TaskExecutionAutoConfiguration.class,
                    LifecycleAutoConfiguration.class, SendersScopeAutoConfiguration.class,
                    SendersTaskExecutorAutoConfiguration.class));

    /** An {@code @Async} bean whose methods wait for a latch (or until interrupted). */
    static class AsyncWork {
        final CountDownLatch release = new CountDownLatch(1);
        final CountDownLatch started = new CountDownLatch(1);
        final AtomicInteger finished = new AtomicInteger();
        final AtomicBoolean interrupted = new AtomicBoolean();

        @Async
        public void audit(String id) {
            started.countDown();
            try {
                if (release.await(30, TimeUnit.SECONDS)) {
                    finished.incrementAndGet();
                }
            } catch (InterruptedException e) {
                interrupted.set(true);
            }
        }

        // the bean is a class-based proxy: its state is read through methods, which reach the target
        public CountDownLatch started() {
            return started;
        }

        public CountDownLatch release() {
            return release;
        }

        public int finished() {
            return finished.get();
        }

        public boolean interrupted() {
            return interrupted.get();
        }

        @Async
        public CompletableFuture<String> charge(String id) {
            return CompletableFuture.completedFuture("charged " + id);
        }

        @Async
        public void failAudit(String id) {
            throw new IllegalStateException("audit store down for " + id);
        }

        @Async
        public CompletableFuture<String> failCharge(String id) {
            throw new IllegalStateException("card declined for " + id);
        }

        @Async
        public Future<String> failRefund(String id) {
            return CompletableFuture.failedFuture(new IllegalStateException("refund refused for " + id));
        }
    }

    /** An application's own handler for {@code @Async void} exceptions. */
    @Configuration(proxyBeanMethods = false)
    static class OwnAsyncHandler implements AsyncConfigurer {
        static final List<String> seen = new CopyOnWriteArrayList<>();

        @Override
        public AsyncUncaughtExceptionHandler getAsyncUncaughtExceptionHandler() {
            return (ex, method, params) -> seen.add(method.getName() + ": " + ex.getMessage());
        }
    }

    @Configuration(proxyBeanMethods = false)
    @EnableAsync
    static class AsyncApp {
        @Bean
        AsyncWork asyncWork() {
            return new AsyncWork();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnExecutor {
        @Bean
        @ScopeTracked
        ThreadPoolTaskExecutor reportExecutor() {
            ThreadPoolTaskExecutor e = new ThreadPoolTaskExecutor();
            e.setCorePoolSize(1);
            return e;
        }
    }

    @Test
    void applicationTaskExecutorTasksAreWorkOfTheScope_countedAndListed() {
        runner.run(context -> {
            ThreadPoolTaskExecutor executor = context.getBean("applicationTaskExecutor", ThreadPoolTaskExecutor.class);
            CountingScope scope = context.getBean(CountingScope.class);
            ScopeSpawner spawner = context.getBean(ScopeSpawner.class);
            CountDownLatch release = new CountDownLatch(1);
            executor.execute(() -> await(release));
            Future<Integer> f = context.getBean(TaskExecutor.class) instanceof AsyncTaskExecutor a
                    ? a.submit(() -> 42) : null;
            assertThat(f).isNotNull();
            assertThat(f.get(10, TimeUnit.SECONDS)).isEqualTo(42);
            // the future completes when the task returned; its association is released just after
            // (ScopeExecutor's contract), so the count reaches 1 shortly after get() returns
            awaitCount(scope, 1);
            assertThat(names(scope.outstanding())).containsExactly("applicationTaskExecutor task");
            release.countDown();
            awaitCount(scope, 0);
            ScopeReport report = spawner.report();
            assertThat(report.executorTasks()).as("the executor's tasks are counted as such")
                    .extracting(ScopeReport.Counts::started, ScopeReport.Counts::completed).containsExactly(2L, 2L);
            assertThat(report.spawned().started()).as("no spawner was used").isZero();
        });
    }

    @Test
    void asyncMethodsAreNamedClassHashMethod_andJoinedAtShutdown() {
        runner.withUserConfiguration(AsyncApp.class).run(context -> {
            AsyncWork work = context.getBean(AsyncWork.class);
            CountingScope scope = context.getBean(CountingScope.class);
            work.audit("7");
            assertThat(work.started().await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(names(scope.outstanding())).containsExactly("AsyncWork#audit");
            assertThat(work.charge("8").get(10, TimeUnit.SECONDS)).isEqualTo("charged 8");
            // released from another thread while the context closes: the shutdown waits for it
            CompletableFuture.delayedExecutor(300, TimeUnit.MILLISECONDS).execute(work.release()::countDown);
            context.close();
            assertThat(work.finished()).isEqualTo(1);
            assertThat(scope.count()).isZero();
            assertThatThrownBy(() -> work.audit("9")).isInstanceOf(RejectedExecutionException.class)
                    .hasMessageContaining("is closed");
        });
    }

    @Test
    void asyncWorkThatOutlivesTheGraceIsInterrupted_andTheShutdownLogNamesIt(CapturedOutput output) {
        runner.withUserConfiguration(AsyncApp.class)
                .withPropertyValues("senders.scope.shutdown.grace=200ms", "senders.scope.shutdown.stop-timeout=5s")
                .run(context -> {
                    AsyncWork work = context.getBean(AsyncWork.class);
                    CountingScope scope = context.getBean(CountingScope.class);
                    work.audit("stuck");
                    assertThat(work.started().await(10, TimeUnit.SECONDS)).isTrue();
                    long t0 = System.nanoTime();
                    context.close();
                    assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(5));
                    assertThat(work.interrupted()).isTrue();
                    assertThat(scope.count()).isZero();
                });
        assertThat(output).contains("AsyncWork#audit");
    }

    @Test
    void anAsyncVoidMethodsExceptionFailsItsWork_countedAsFailed_loggedOnceWithTheMethodsName(CapturedOutput output) {
        runner.withUserConfiguration(AsyncApp.class).run(context -> {
            AsyncWork work = context.getBean(AsyncWork.class);
            CountingScope scope = context.getBean(CountingScope.class);
            work.failAudit("3");
            Senders.syncWait(scope.whenIdle(), Duration.ofSeconds(10));
            ScopeReport report = context.getBean(ScopeSpawner.class).report();
            assertThat(report.executorTasks().failed()).isEqualTo(1);
            assertThat(report.executorTasks().completed()).isZero();
            assertThat(scope.errorCount()).isEqualTo(1);
        });
        assertThat(output.getOut() + output.getErr())
                .containsOnlyOnce("Work 'AsyncWork#failAudit' spawned into scope")
                .containsOnlyOnce("audit store down for 3")
                .doesNotContain("Unexpected exception occurred invoking async method");
    }

    @Test
    void theApplicationsOwnAsyncExceptionHandlerStillGetsTheException_andTheWorkFailsToo() {
        OwnAsyncHandler.seen.clear();
        runner.withUserConfiguration(AsyncApp.class, OwnAsyncHandler.class).run(context -> {
            AsyncWork work = context.getBean(AsyncWork.class);
            CountingScope scope = context.getBean(CountingScope.class);
            work.failAudit("4");
            Senders.syncWait(scope.whenIdle(), Duration.ofSeconds(10));
            assertThat(OwnAsyncHandler.seen).containsExactly("failAudit: audit store down for 4");
            assertThat(context.getBean(ScopeSpawner.class).report().executorTasks().failed()).isEqualTo(1);
        });
    }

    @Test
    void aFutureMethodsExceptionReachesTheCallerAndFailsItsWorkOnce() {
        runner.withUserConfiguration(AsyncApp.class).run(context -> {
            AsyncWork work = context.getBean(AsyncWork.class);
            CountingScope scope = context.getBean(CountingScope.class);
            assertThatThrownBy(() -> work.failCharge("5").get(10, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class).hasRootCauseMessage("card declined for 5");
            assertThatThrownBy(() -> work.failRefund("6").get(10, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class).hasRootCauseMessage("refund refused for 6");
            Senders.syncWait(scope.whenIdle(), Duration.ofSeconds(10));
            ScopeReport report = context.getBean(ScopeSpawner.class).report();
            assertThat(report.executorTasks().failed()).isEqualTo(2);
            assertThat(scope.errorCount()).isEqualTo(2);
        });
    }

    @Test
    void trackTaskExecutorFalseLeavesSpringsExecutorAlone() {
        runner.withPropertyValues("senders.scope.track-task-executor=false").run(context -> {
            ThreadPoolTaskExecutor executor = context.getBean("applicationTaskExecutor", ThreadPoolTaskExecutor.class);
            CountDownLatch release = new CountDownLatch(1);
            executor.execute(() -> await(release));
            assertThat(context.getBean(CountingScope.class).count()).isZero();
            assertThat(executor.getClass()).isEqualTo(ThreadPoolTaskExecutor.class);
            release.countDown();
        });
    }

    @Test
    void anExecutorBeanMarkedScopeTrackedOptsIn() {
        runner.withUserConfiguration(OwnExecutor.class).withPropertyValues("senders.scope.track-task-executor=false")
                .run(context -> {
                    ThreadPoolTaskExecutor executor = context.getBean("reportExecutor", ThreadPoolTaskExecutor.class);
                    CountingScope scope = context.getBean(CountingScope.class);
                    CountDownLatch release = new CountDownLatch(1);
                    executor.execute(() -> await(release));
                    assertThat(names(scope.outstanding())).containsExactly("reportExecutor task");
                    release.countDown();
                    awaitCount(scope, 0);
                });
    }

    @Test
    void theExecutorAcceptsTasksAfterTheContextClosedEvent_untilTheScopeCloses() {
        runner.run(context -> {
            ThreadPoolTaskExecutor executor = context.getBean("applicationTaskExecutor", ThreadPoolTaskExecutor.class);
            CountingScope scope = context.getBean(CountingScope.class);
            // Spring would otherwise shut it down on the context-closed event, before the web server drains
            context.publishEvent(new org.springframework.context.event.ContextClosedEvent(context.getSourceApplicationContext()));
            AtomicBoolean ran = new AtomicBoolean();
            executor.submit(() -> ran.set(true)).get(10, TimeUnit.SECONDS);
            assertThat(ran).isTrue();
            // the scope's shutdown closes it: from then on the executor refuses tasks, saying why
            scope.close();
            AtomicBoolean late = new AtomicBoolean();
            assertThatThrownBy(() -> executor.submit(() -> late.set(true))).isInstanceOf(RejectedExecutionException.class)
                    .hasMessageContaining("is closed");
            assertThat(late).isFalse();
            assertThat(scope.refusedCount()).isEqualTo(1);
        });
    }

    @Test
    @EnabledForJreRange(min = JRE.JAVA_21)
    void virtualThreadExecutorIsTrackedToo() {
        runner.withUserConfiguration(AsyncApp.class).withPropertyValues("spring.threads.virtual.enabled=true")
                .run(context -> {
                    assertThat(context.getBean("applicationTaskExecutor")).isInstanceOf(SimpleAsyncTaskExecutor.class);
                    AsyncWork work = context.getBean(AsyncWork.class);
                    work.audit("v");
                    assertThat(work.started().await(10, TimeUnit.SECONDS)).isTrue();
                    assertThat(names(context.getBean(CountingScope.class).outstanding())).containsExactly("AsyncWork#audit");
                    work.release().countDown();
                    context.close();
                    assertThat(work.finished()).isEqualTo(1);
                });
    }

    @Test
    void anAsyncTaskIsAnObservation_namedAfterItsMethod_childOfTheSubmittingRequest() {
        TestObservationRegistry registry = TestObservationRegistry.create();
        Observation request = Observation.start("http.server.requests", registry);
        runner.withConfiguration(AutoConfigurations.of(SendersObservationAutoConfiguration.class))
                .withBean(ObservationRegistry.class, () -> registry)
                .withUserConfiguration(AsyncApp.class).run(context -> {
                    AsyncWork work = context.getBean(AsyncWork.class);
                    CompletableFuture<String> charged = request.scoped(() -> work.charge("5"));
                    assertThat(charged.get(10, TimeUnit.SECONDS)).isEqualTo("charged 5");
                    context.close();
                });
        request.stop();
        TestObservationRegistryAssert.assertThat(registry)
                .hasAnObservation(o -> o.hasNameEqualTo("senders.work")
                        .hasLowCardinalityKeyValue("work", "AsyncWork#charge")
                        .hasLowCardinalityKeyValue("outcome", "value")
                        .hasParentObservationEqualTo(request));
    }

    private static List<String> names(List<OutstandingWork> work) {
        return work.stream().map(w -> w.name().orElse("?")).toList();
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Waits until the scope holds {@code n} operations (hang guard: 10 s). */
    private static void awaitCount(CountingScope scope, long n) {
        Awaitility.await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(scope.count()).isEqualTo(n));
    }
}
