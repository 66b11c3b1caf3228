package dev.senders.reactor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.scope.AsyncScopeToken;
import dev.senders.scope.CountingScope;
import dev.senders.scope.ScopeState;
import dev.senders.scope.SpawnListener;
import dev.senders.testkit.RecordingListener;
import dev.senders.testkit.StubbornBody;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * {@link ReactorScopes#spawn} through a token whose only decorator is a {@link SpawnListener}:
 * the listener is told each piece of work once, as it ends, before the scope releases it, also
 * when the release waits for tasks the work scheduled ({@link ScheduledTaskTracking}).
 */
class ListenerTokenSpawnTest {

    @Test
    @DisplayName("disposed work whose scheduled body still runs is ended stopped at once, and released only when the body returns")
    void disposedWithATaskRunning_endedOnce_releasedWhenTheTaskReturns() throws Exception {
        StubbornBody body = new StubbornBody();
        Disposable tracking = ScheduledTaskTracking.install();
        try {
            CountingScope scope = new CountingScope("tracked");
            RecordingListener log = new RecordingListener(scope);
            AsyncScopeToken token = log.token(scope.getToken(), "tracked");
            Disposable work = ReactorScopes.spawn(Mono.fromRunnable(body).subscribeOn(Schedulers.boundedElastic()).then(), token);
            body.awaitStarted();

            work.dispose();
            work.dispose();

            assertEquals(List.of("accepted tracked null", "end stopped (count 1, errors 0)"), log.events);
            assertEquals(1, scope.count(), "the body still runs: the association is held");
            body.release();
            ReactorSenders.toMono(scope.join()).block(Duration.ofSeconds(30));
            assertEquals(ScopeState.JOINED, scope.state());
            assertTrue(body.ended());
            assertEquals(List.of("accepted tracked null", "end stopped (count 1, errors 0)"), log.events, "ended once");
        } finally {
            body.release();
            tracking.dispose();
        }
    }

    @Test
    @DisplayName("an error of work with a scheduled task: ended with the error before it is routed to the scope")
    void errorWithATaskRunning_endedBeforeRouted() throws Exception {
        StubbornBody body = new StubbornBody();
        Disposable tracking = ScheduledTaskTracking.install();
        try {
            CountingScope scope = new CountingScope("tracked", e -> { });
            RecordingListener listener = new RecordingListener(scope);
            // the scheduled task fails the work, then its body keeps running
            Mono<Void> failing = Mono.<Void>create(sink -> {
                sink.error(new IllegalStateException("boom"));
                body.run();
            }).subscribeOn(Schedulers.boundedElastic());
            ReactorScopes.spawn(failing, listener.token(scope.getToken(), "tracked"));
            body.awaitStarted();

            assertEquals(List.of("accepted tracked null", "end error boom (count 1, errors 0)"), listener.events);
            assertEquals(1, scope.errorCount(), "routed once ended");
            assertEquals(1, scope.count(), "released only once the task returned");
            body.release();
            ReactorSenders.toMono(scope.join()).block(Duration.ofSeconds(30));
            assertEquals(0, scope.count());
            assertEquals(2, listener.events.size(), "ended once");
        } finally {
            body.release();
            tracking.dispose();
        }
    }
}
