package dev.senders.scope.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.Hooks;
import dev.senders.Senders;
import dev.senders.scope.AsyncScopeToken;
import dev.senders.scope.CountingScope;
import dev.senders.scope.Scopes;
import dev.senders.scope.SpawnDecorator;
import dev.senders.scope.SpawnListener;
import dev.senders.testkit.RecordingListener;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * A token whose only decorator is a {@link SpawnListener} takes the adapters' direct path
 * ({@link SpawnedWork}), and the listener is told there what the decorated route tells it:
 * {@code accepted} once after the association, {@code end} exactly once with the outcome, before
 * the error is routed and the association released, on every completion path.
 */
class ListenedDirectPathTest {

    /** Spawned work over a hand-driven source, as the adapters' work is. */
    static final class ManualWork extends SpawnedWork {
        private final Consumer<ManualWork> onSubscribe;
        int subscribed;
        int cancels;
        final List<Throwable> dropped = new CopyOnWriteArrayList<>();

        ManualWork(Consumer<ManualWork> onSubscribe) {
            super(0);
            this.onSubscribe = onSubscribe;
        }

        @Override
        protected void subscribeUpstream() {
            subscribed++;
            onSubscribe.accept(this);
        }

        @Override
        protected void cancelUpstream() {
            cancels++;
        }

        @Override
        protected void dropError(Throwable error) {
            dropped.add(error);
        }

        void value() {
            upstreamCompleted();
        }

        void error(Throwable error) {
            upstreamTerminated(error);
        }
    }

    /** What the adapters do: ask the path, associate, then start directly. */
    static @Nullable ManualWork spawnDirect(AsyncScopeToken token, Consumer<ManualWork> onSubscribe) {
        assertTrue(SpawnedWork.directPath(token), "a listener's token takes the direct path");
        if (!token.tryAssociate()) {
            return null;
        }
        ManualWork work = new ManualWork(onSubscribe);
        work.startDirect(token);
        return work;
    }

    final CountingScope scope = new CountingScope("s", e -> { });
    final RecordingListener listener = new RecordingListener(scope);
    final AsyncScopeToken token = listener.token(scope.getToken(), "s");

    @AfterEach
    void resetHooks() {
        Hooks.resetOnErrorDropped();
    }

    @Test
    @DisplayName("only a token whose whole decoration is a listener, over a token whose wrap adds nothing, takes the direct path")
    void onlyAListenerAloneTakesTheDirectPath() {
        AsyncScopeToken plain = scope.getToken();
        SpawnDecorator installing = (scopeName, workName) -> SpawnDecorator.Decoration.NONE;
        assertTrue(SpawnedWork.directPath(token));
        assertTrue(SpawnedWork.directPath(plain));
        assertFalse(SpawnedWork.directPath(installing.token(plain, "s")), "an ordinary decorator is applied by wrap");
        assertFalse(SpawnedWork.directPath(SpawnDecorator.compose(List.of(listener, installing)).token(plain, "s")),
                "a listener composed with a decorator that keeps state per work keeps the general path");
        assertFalse(SpawnedWork.directPath(listener.token(installing.token(plain, "s"), "s")),
                "a listener over a decorating token: the inner token's wrap adds something");
        assertTrue(SpawnedWork.directPath(SpawnDecorator.compose(List.of(SpawnDecorator.NONE, listener)).token(plain, "s")),
                "NONE is left out of a composition: the listener alone remains");
    }

    @Test
    @DisplayName("a listener is its own decoration and installs nothing")
    void aListenerIsItsOwnDecoration_andInstallsNothing() {
        assertSame(listener, listener.decorate("s", "w"));
        assertSame(SpawnDecorator.Installed.NOTHING, listener.install());
        assertEquals(List.of("accepted s w"), listener.events);
    }

    @Test
    @DisplayName("work that ends inside subscribe: accepted, then ended with its value while still associated")
    void valueInsideSubscribe_acceptedThenEndedBeforeRelease() {
        ManualWork work = spawnDirect(token, ManualWork::value);
        assertEquals(List.of("accepted s null", "end value (count 1, errors 0)"), listener.events);
        assertEquals(0, scope.count());
        assertTrue(work.isDisposed());
    }

    @Test
    @DisplayName("an error is ended before it is routed to the scope and before the association is released")
    void error_endedBeforeRoutedAndReleased() {
        ManualWork work = spawnDirect(token, w -> { });
        assertEquals(1, scope.count());
        work.error(new IllegalStateException("boom"));
        assertEquals(List.of("accepted s null", "end error boom (count 1, errors 0)"), listener.events);
        assertEquals(1, scope.errorCount());
        assertEquals(0, scope.count());
    }

    @Test
    @DisplayName("an upstream CancellationException ends the work stopped, not failed")
    void upstreamCancellation_isStopped() {
        ManualWork work = spawnDirect(token, w -> { });
        work.error(new CancellationException("gone"));
        assertEquals(List.of("accepted s null", "end stopped (count 1, errors 0)"), listener.events);
        assertEquals(0, scope.errorCount());
    }

    @Test
    @DisplayName("the scope's requestStop ends running work stopped once; a terminal signal after it ends nothing")
    void requestStop_endsStoppedOnce() {
        ManualWork work = spawnDirect(token, w -> { });
        scope.requestStop();
        work.value();
        work.error(new IllegalStateException("late"));
        assertEquals(List.of("accepted s null", "end stopped (count 1, errors 0)"), listener.events);
        assertEquals(1, work.cancels);
        assertEquals(1, work.dropped.size(), "the late error is reported, not lost");
        assertEquals(0, scope.count());
    }

    @Test
    @DisplayName("dispose ends the work stopped once, however often it is called")
    void dispose_endsStoppedOnce() {
        ManualWork work = spawnDirect(token, w -> { });
        work.stop();
        work.stop();
        assertEquals(List.of("accepted s null", "end stopped (count 1, errors 0)"), listener.events);
        assertEquals(0, scope.count());
    }

    @Test
    @DisplayName("a dispose while the source is still being subscribed is ended once, when subscribe returned")
    void stopWhileSubscribing_endedOnceAfterSubscribe() {
        ManualWork work = spawnDirect(token, w -> {
            w.stop();
            assertEquals(List.of("accepted s null"), listener.events, "not ended while subscribe runs");
        });
        assertEquals(List.of("accepted s null", "end stopped (count 1, errors 0)"), listener.events);
        assertEquals(0, scope.count());
        assertTrue(work.isDisposed());
    }

    @Test
    @DisplayName("a stop requested before the spawn: accepted, never subscribed, ended stopped")
    void stopBeforeSpawn_acceptedAndEndedStopped() {
        scope.requestStop();
        ManualWork work = spawnDirect(token, w -> { });
        assertEquals(0, work.subscribed);
        assertEquals(List.of("accepted s null", "end stopped (count 1, errors 0)"), listener.events);
        assertEquals(0, scope.count());
    }

    @Test
    @DisplayName("a subscribe that throws ends the work with that error once, before it is routed")
    void subscribeThrows_endedWithItsError() {
        spawnDirect(token, w -> {
            throw new IllegalArgumentException("broken source");
        });
        assertEquals(List.of("accepted s null", "end error broken source (count 1, errors 0)"), listener.events);
        assertEquals(1, scope.errorCount());
        assertEquals(0, scope.count());
    }

    @Test
    @DisplayName("a refused spawn is told as refused, never accepted or ended")
    void refused_isToldRefused() {
        scope.close();
        assertTrue(SpawnedWork.directPath(token));
        assertFalse(token.tryAssociate());
        assertEquals(List.of("refused s"), listener.events);
    }

    @Test
    @DisplayName("a listener whose accepted throws: the association is released and the exception propagates")
    void acceptedThrows_associationReleased() {
        SpawnListener broken = new SpawnListener() {
            @Override
            protected void accepted(String scopeName, @Nullable String workName) {
                throw new IllegalStateException("broken listener");
            }

            @Override
            public void end(SpawnDecorator.Outcome outcome, @Nullable Throwable error) {
            }
        };
        AsyncScopeToken t = broken.token(scope.getToken(), "s");
        assertTrue(t.tryAssociate());
        ManualWork work = new ManualWork(w -> { });
        assertThrows(IllegalStateException.class, () -> work.startDirect(t));
        assertEquals(0, work.subscribed);
        assertEquals(0, scope.count());
    }

    @Test
    @DisplayName("a listener whose end throws: reported to onErrorDropped, and the association is still released")
    void endThrows_reportedAndReleased() {
        List<Throwable> dropped = new CopyOnWriteArrayList<>();
        Hooks.setOnErrorDropped(dropped::add);
        SpawnListener broken = new SpawnListener() {
            @Override
            protected void accepted(String scopeName, @Nullable String workName) {
            }

            @Override
            public void end(SpawnDecorator.Outcome outcome, @Nullable Throwable error) {
                throw new IllegalStateException("broken end");
            }
        };
        spawnDirect(broken.token(scope.getToken(), "s"), ManualWork::value);
        assertEquals(0, scope.count());
        assertEquals(List.of("broken end"), dropped.stream().map(Throwable::getMessage).toList());
    }

    @Test
    @DisplayName("the other routes decorate with the listener as before: Scopes.spawn tells accepted and end once")
    void scopesSpawn_decoratesWithTheListener() {
        assertTrue(Scopes.spawn(Senders.just(1), token));
        assertTrue(Scopes.spawn(Scopes.named(Senders.just(2), "w"), token));
        assertEquals(List.of("accepted s null", "end value (count 1, errors 0)",
                "accepted s w", "end value (count 1, errors 0)"), listener.events);
        assertEquals(0, scope.count());
    }
}
