package dev.senders.reactor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.Env;
import dev.senders.Query;
import dev.senders.StopCallback;
import dev.senders.StopToken;
import dev.senders.scope.AsyncScopeToken;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

/**
 * Decision U9: spawned work is registered on its scope's stop token only if it has not ended when
 * {@code subscribe} returns. Observed through a token whose stop token is an ordinary one (not the
 * library's own source), which counts its registrations and their closes.
 */
class SpawnRegistrationTest {

    /** A stop token that counts {@code onStop} registrations and closes, and can be stopped by hand. */
    static final class CountingStopToken implements StopToken {
        final AtomicInteger registered = new AtomicInteger();
        final AtomicInteger closed = new AtomicInteger();
        final AtomicReference<Runnable> callback = new AtomicReference<>();
        volatile boolean stopped;

        @Override
        public boolean stopRequested() {
            return stopped;
        }

        @Override
        public boolean stopPossible() {
            return true;
        }

        @Override
        public StopCallback onStop(Runnable cb) {
            registered.incrementAndGet();
            if (stopped) {
                cb.run();
                return () -> { };
            }
            callback.set(cb);
            return () -> {
                callback.set(null);
                closed.incrementAndGet();
            };
        }

        void requestStop() {
            stopped = true;
            Runnable cb = callback.getAndSet(null);
            if (cb != null) {
                cb.run();
            }
        }
    }

    /** A token with a count and {@code stop} as its spawn env's stop token. */
    static final class Token implements AsyncScopeToken {
        final AtomicInteger count = new AtomicInteger();
        final Env env;

        Token(StopToken stop) {
            env = Env.of(Query.STOP_TOKEN, stop);
        }

        @Override
        public boolean tryAssociate() {
            count.incrementAndGet();
            return true;
        }

        @Override
        public void dissociate() {
            count.decrementAndGet();
        }

        @Override
        public Env spawnEnv() {
            return env;
        }
    }

    @Test
    void anAsyncShapedMonoThatEndsInsideSubscribe_isNeverRegisteredOnTheStopToken() {
        CountingStopToken stop = new CountingStopToken();
        Token token = new Token(stop);
        AtomicInteger runs = new AtomicInteger();

        Disposable d = ReactorScopes.spawn(Mono.fromRunnable(runs::incrementAndGet).hide(), token);

        assertEquals(1, runs.get());
        assertTrue(d.isDisposed(), "the work ended inside spawn");
        assertEquals(0, token.count.get(), "the association was released");
        assertEquals(0, stop.registered.get(), "work that ended inside subscribe never registers");
    }

    @Test
    void workStillRunningWhenSubscribeReturns_isRegisteredOnce_andItsRegistrationIsClosedWhenItEnds() {
        CountingStopToken stop = new CountingStopToken();
        Token token = new Token(stop);
        Sinks.Empty<Void> sink = Sinks.empty();

        Disposable d = ReactorScopes.spawn(sink.asMono(), token);

        assertEquals(1, stop.registered.get());
        assertEquals(1, token.count.get());
        assertFalse(d.isDisposed());
        sink.tryEmitEmpty();
        assertEquals(1, stop.closed.get(), "the registration is closed before the work completes");
        assertEquals(0, token.count.get());
        assertTrue(d.isDisposed());
    }

    @Test
    void aStopRequestedAfterSubscribeReturned_cancelsTheRunningWorkThroughItsRegistration() {
        CountingStopToken stop = new CountingStopToken();
        Token token = new Token(stop);
        AtomicInteger cancels = new AtomicInteger();
        Mono<Void> never = Mono.<Void>never().doOnCancel(cancels::incrementAndGet);

        Disposable d = ReactorScopes.spawn(never, token);
        stop.requestStop();

        assertEquals(1, cancels.get());
        assertEquals(0, token.count.get());
        assertTrue(d.isDisposed());
    }

    @Test
    void aStopRequestedWhileSubscribeRuns_isActedOnOnceSubscribeReturned_neverLost() {
        CountingStopToken stop = new CountingStopToken();
        Token token = new Token(stop);
        AtomicInteger cancels = new AtomicInteger();
        // the source's subscribe requests the stop (as another thread could meanwhile), delivers
        // nothing and returns without ending: the registration after subscribe finds the stop
        Mono<Void> source = Mono.<Void>never().doOnSubscribe(s -> stop.requestStop()).doOnCancel(cancels::incrementAndGet);

        Disposable d = ReactorScopes.spawn(source, token);

        assertEquals(1, cancels.get());
        assertEquals(0, token.count.get());
        assertTrue(d.isDisposed());
    }
}
