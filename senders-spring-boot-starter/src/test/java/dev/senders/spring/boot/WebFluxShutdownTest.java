package dev.senders.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.senders.scope.ScopeState;
import dev.senders.scope.ShutdownReport;
import dev.senders.spring.boot.webapp.ResultStore;
import dev.senders.spring.boot.webapp.WorkApp;
import dev.senders.spring.boot.webapp.WorkApp.Answer;
import dev.senders.spring.boot.webapp.WorkApplication;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.boot.web.server.context.WebServerGracefulShutdownLifecycle;
import org.springframework.context.SmartLifecycle;
import org.springframework.http.client.ReactorResourceFactory;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;

/**
 * The shutdown user stories on a real WebFlux app (Netty, random loopback port) that has no scope
 * wiring of its own: the starter's scope closes after the server drained its requests, waits for
 * their work, stops what outlasts the grace, and gives up within its bounds.
 */
@ExtendWith(OutputCaptureExtension.class)
class WebFluxShutdownTest {

    @Test
    void spawnedWorkFinishesBeforeTheContextIsGone_andItsResultIsVisible() throws Exception {
        WorkApp app = WorkApp.start("senders.scope.name=web");
        ResultStore store = app.bean(ResultStore.class);
        ScopeSpawner spawner = app.bean(ScopeSpawner.class);

        assertThat(app.post("/slow/order-1?ms=600", null)).isEqualTo(new Answer(202, "accepted"));
        assertThat(store.results).as("the request returned before its work ended").doesNotContainKey("order-1");

        long closeMillis = app.closeAsync().get(20, TimeUnit.SECONDS);

        assertThat(store.results).containsKey("order-1");
        assertThat(store.lateUses).as("no work ran after the beans were destroyed").hasValue(0);
        assertThat(spawner.scope().state()).isEqualTo(ScopeState.JOINED);
        assertThat(spawner.report()).extracting(r -> r.spawned().started(), r -> r.spawned().completed(), ScopeReport::active)
                .containsExactly(1L, 1L, 0L);
        assertThat(closeMillis).as("close waited for the work").isGreaterThanOrEqualTo(300);
    }

    @Test
    void aRequestInFlightDuringGracefulShutdownMayStillSpawn_andItsWorkIsJoined() throws Exception {
        WorkApp app = WorkApp.start();
        ResultStore store = app.bean(ResultStore.class);

        // The request itself takes 800 ms before it spawns: it is in flight when shutdown begins.
        CompletableFuture<Answer> inFlight = app.postAsync("/late/order-2?ms=800", null).toFuture();
        WorkApplication.lateArrived("order-2").get(10, TimeUnit.SECONDS);   // the request has reached the handler
        CompletableFuture<Long> closed = app.closeAsync();

        assertThat(inFlight.get(10, TimeUnit.SECONDS))
                .as("the scope was still open while the server drained its requests")
                .isEqualTo(new Answer(202, "accepted"));
        closed.get(20, TimeUnit.SECONDS);
        assertThat(store.results).containsEntry("order-2", "late");
        assertThat(store.lateUses).hasValue(0);
    }

    @Test
    void theScopeClosesAfterTheWebServerStopsAndBeforeReactorNettyResources() {
        WorkApp app = WorkApp.start();
        try {
            int ours = app.bean(ScopeShutdown.class).getPhase();
            int graceful = phase(app, WebServerGracefulShutdownLifecycle.class);
            int startStop = app.context.getBean("webServerStartStop", SmartLifecycle.class).getPhase();
            int resources = app.bean(ReactorResourceFactory.class).getPhase();
            assertThat(graceful).isEqualTo(WebServerApplicationContext.GRACEFUL_SHUTDOWN_PHASE);
            assertThat(startStop).isEqualTo(WebServerApplicationContext.START_STOP_LIFECYCLE_PHASE);
            assertThat(ours).isLessThan(startStop).isLessThan(graceful).isGreaterThan(resources);
        } finally {
            app.close();
        }
    }

    @Test
    void workCanStillUseReactorNettyClientsWhileTheScopeJoins() throws Exception {
        DisposableServer other = HttpServer.create().host("127.0.0.1").port(0)
                .route(r -> r.get("/price", (req, res) -> res.sendString(Mono.just("42")))).bindNow();
        try {
            WorkApp app = WorkApp.start();
            ResultStore store = app.bean(ResultStore.class);
            String url = "http://127.0.0.1:" + other.port() + "/price";

            // The call starts 700 ms later: after this app's server has stopped.
            assertThat(app.post("/call/order-3?ms=700&url=" + url, null).status()).isEqualTo(202);
            app.closeAsync().get(20, TimeUnit.SECONDS);

            assertThat(store.results).containsEntry("order-3", "42");
        } finally {
            other.disposeNow();
        }
    }

    @Test
    void workThatOutlastsTheGraceIsStopped_andShutdownEndsSoonAfterTheGrace(CapturedOutput output) throws Exception {
        WorkApp app = WorkApp.start("senders.scope.name=web", "senders.scope.shutdown.grace=300ms",
                "senders.scope.shutdown.stop-timeout=5s");
        ResultStore store = app.bean(ResultStore.class);
        ScopeSpawner spawner = app.bean(ScopeSpawner.class);
        ScopeShutdown shutdown = app.bean(ScopeShutdown.class);
        assertThat(app.post("/hang/order-4", null).status()).isEqualTo(202);

        long closeMillis = app.closeAsync().get(20, TimeUnit.SECONDS);

        assertThat(store.results).as("the stop request cancelled it").containsEntry("order-4", "stopped");
        assertThat(spawner.report()).extracting(r -> r.spawned().stopped(), ScopeReport::active).containsExactly(1L, 0L);
        assertThat(spawner.scope().state()).isEqualTo(ScopeState.JOINED);
        ShutdownReport result = shutdown.shutdown().toCompletableFuture().get();
        assertThat(result.outcome()).isEqualTo(ShutdownReport.Outcome.STOPPED);
        assertThat(result.elapsed()).as("ended by the stop request, long before the stop timeout")
                .isBetween(Duration.ofMillis(300), Duration.ofMillis(3_000));
        assertThat(closeMillis).isGreaterThanOrEqualTo(300);
        assertThat(output).contains("Scope 'web': the 300 ms grace is over with 1 operation(s) still associated:"
                + " requesting stop\n  hang-order-4 (spawn, running for ");
        String end = output.getOut().substring(output.getOut().indexOf("Shut down: "));
        assertThat(end).as("the state and the outcome agree: it joined, after the stop request")
                .startsWith("Shut down: scope 'web' joined ").contains(" after close(), after requestStop(): the")
                .contains(" grace had passed with 1 operation(s) running. Now scope 'web' JOINED: 0 active")
                .doesNotContain("STOPPED");
    }

    @Test
    void workThatIgnoresTheStopRequestIsLoggedByNameAndAge_andShutdownGoesOnWithinGracePlusStopTimeout(
            CapturedOutput output)
            throws Exception {
        WorkApp app = WorkApp.start("senders.scope.name=web", "senders.scope.shutdown.grace=300ms",
                "senders.scope.shutdown.stop-timeout=400ms");
        ScopeSpawner spawner = app.bean(ScopeSpawner.class);
        ScopeShutdown shutdown = app.bean(ScopeShutdown.class);
        assertThat(app.post("/stubborn/order-5", null).status()).isEqualTo(202);

        long closeMillis = app.closeAsync().get(20, TimeUnit.SECONDS);
        try {
            ShutdownReport result = shutdown.shutdown().toCompletableFuture().get();
            assertThat(result.outcome()).isEqualTo(ShutdownReport.Outcome.ABANDONED);
            assertThat(result.elapsed()).as("grace + stop timeout = 700 ms, then it gave up")
                    .isBetween(Duration.ofMillis(700), Duration.ofMillis(2_000));
            assertThat(closeMillis).isGreaterThanOrEqualTo(700);
            assertThat(result.remaining()).isEqualTo(1);
            assertThat(spawner.report().active()).isEqualTo(1);
            assertThat(output).contains("Gave up: scope 'web' did not join: 1 operation(s) still associated");
            String out = output.getOut();
            String abandoned = out.substring(out.indexOf("Gave up: scope 'web'"));
            assertThat(abandoned).as("the work still associated is named, with its age")
                    .containsPattern("state CLOSED_AND_JOINING\\R  stubborn-order-5 \\(spawn, running for [\\d.]+ m?s\\)")
                    .contains("Now scope 'web' CLOSED_AND_JOINING: 1 active");
            Matcher m = Pattern.compile("stubborn-order-5 \\(spawn, running for ([\\d.]+) (m?s)\\)")
                    .matcher(abandoned);
            assertThat(m.find()).isTrue();
            double millis = Double.parseDouble(m.group(1)) * (m.group(2).equals("s") ? 1_000 : 1);
            assertThat(millis).as("it ran from its spawn to the end of the stop timeout")
                    .isGreaterThanOrEqualTo(700);
            assertThat(result.stillRunning()).extracting(w -> w.name().orElseThrow())
                    .containsExactly("stubborn-order-5");
        } finally {
            WorkApplication.STUBBORN.complete(null);             // let it end: the scope joins
        }
        assertThat(spawner.scope().state()).isEqualTo(ScopeState.JOINED);
    }

    private static int phase(WorkApp app, Class<? extends SmartLifecycle> type) {
        return app.context.getBeansOfType(type).values().iterator().next().getPhase();
    }
}
