package dev.senders.scope;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.Env;
import dev.senders.Hooks;
import dev.senders.Sender;
import dev.senders.Senders;
import dev.senders.testkit.ManualSender;
import dev.senders.testkit.TestReceiver;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A user-written token that forwards every method of {@link AsyncScopeToken} to a scope's token
 * (here: counting the associations it passes on, as a decorator would) behaves exactly like the
 * scope's own token: the algorithms reach the scope only through the token's methods, never
 * through a test of its class. Every case runs with the scope's token and with the forwarding one
 * and expects the same observations: the same stop, the same error routing and counting, the same
 * counts, and the same receiver class for the spawned work (no extra {@code stopWhen} layer).
 */
@DisplayName("A token forwarding to a scope's token behaves like the scope's token")
class ForwardingTokenTest {

    /** Forwards every method, defaults included; counts what it forwards. */
    static final class Forwarding implements AsyncScopeToken {
        final AsyncScopeToken target;
        final AtomicInteger associations = new AtomicInteger();
        final AtomicInteger dissociations = new AtomicInteger();

        Forwarding(AsyncScopeToken target) {
            this.target = target;
        }

        @Override
        public boolean tryAssociate() {
            boolean ok = target.tryAssociate();
            if (ok) {
                associations.incrementAndGet();
            }
            return ok;
        }

        @Override
        public void dissociate() {
            dissociations.incrementAndGet();
            target.dissociate();
        }

        @Override
        public <T> Sender<T> wrap(Sender<T> sender) {
            return target.wrap(sender);
        }

        @Override
        public <T> Sender<T> wrap(Sender<T> sender, Env env) {
            return target.wrap(sender, env);
        }

        @Override
        public Env spawnEnv() {
            return target.spawnEnv();
        }

        @Override
        public void onSpawnError(Throwable error, Env env) {
            target.onSpawnError(error, env);
        }
    }

    private final List<Throwable> dropped = new CopyOnWriteArrayList<>();

    @AfterEach
    void resetHooks() {
        Hooks.resetOnErrorDropped();
    }

    private static AsyncScopeToken token(AsyncScopeToken scopeToken, boolean forwarding) {
        return forwarding ? new Forwarding(scopeToken) : scopeToken;
    }

    @ParameterizedTest(name = "forwarding = {0}")
    @ValueSource(booleans = {false, true})
    @DisplayName("spawned work sees the scope's stop, through the same receiver, and a stop request reaches it")
    void spawn_stop(boolean forwarding) {
        CountingScope scope = new CountingScope();
        ManualSender<Void> work = new ManualSender<>(true);
        assertTrue(Scopes.spawn(work, token(scope.getToken(), forwarding)));
        assertEquals(1, scope.count());
        assertTrue(work.receiver() instanceof SpawnReceiver,
                "the work is connected to the spawn receiver itself (no stopWhen layer)");
        assertTrue(work.receiver().env().stopToken().stopPossible());
        assertFalse(work.receiver().env().stopToken().stopRequested());
        scope.requestStop();
        assertEquals(1, work.stopsSeen());
        assertTrue(work.receiver().env().stopToken().stopRequested());
        assertEquals(0, scope.count(), "the stopped work released its association");
    }

    @ParameterizedTest(name = "forwarding = {0}")
    @ValueSource(booleans = {false, true})
    @DisplayName("an error of spawned work goes to the scope's handler and is counted by the scope")
    void spawn_errorToScopeHandler(boolean forwarding) {
        Hooks.setOnErrorDropped(dropped::add);
        List<Throwable> handled = new CopyOnWriteArrayList<>();
        CountingScope scope = new CountingScope(handled::add);
        IllegalStateException boom = new IllegalStateException("boom");
        assertTrue(Scopes.spawn(Senders.justError(boom), token(scope.getToken(), forwarding)));
        assertEquals(List.of(boom), handled);
        assertEquals(1, scope.errorCount());
        assertEquals(List.of(), dropped);
        assertEquals(0, scope.count());
    }

    @ParameterizedTest(name = "forwarding = {0}")
    @ValueSource(booleans = {false, true})
    @DisplayName("the env's SPAWN_ERROR_HANDLER takes precedence over the scope's, and the scope still counts the error")
    void spawn_envHandlerWins(boolean forwarding) {
        List<Throwable> byScope = new CopyOnWriteArrayList<>();
        List<Throwable> byEnv = new CopyOnWriteArrayList<>();
        SimpleCountingScope scope = new SimpleCountingScope(byScope::add);
        Consumer<Throwable> envHandler = byEnv::add;
        IllegalStateException boom = new IllegalStateException("boom");
        assertTrue(Scopes.spawn(Senders.justError(boom), token(scope.getToken(), forwarding),
                Env.of(Scopes.SPAWN_ERROR_HANDLER, envHandler)));
        assertEquals(List.of(boom), byEnv);
        assertEquals(List.of(), byScope);
        assertEquals(1, scope.errorCount());
    }

    @ParameterizedTest(name = "forwarding = {0}")
    @ValueSource(booleans = {false, true})
    @DisplayName("counts: each spawn holds one association until it completes; join waits for all of them")
    void spawn_countsAndJoin(boolean forwarding) {
        SimpleCountingScope scope = new SimpleCountingScope();
        AsyncScopeToken token = token(scope.getToken(), forwarding);
        ManualSender<Integer> work = new ManualSender<>();
        for (int i = 0; i < 3; i++) {
            assertTrue(Scopes.spawn(work, token));
        }
        assertEquals(3, scope.count());
        TestReceiver<Void> join = TestReceiver.start(scope.join());
        assertFalse(join.isDone());
        for (var r : work.started()) {
            r.setValue(1);
        }
        assertTrue(join.isDone());
        assertEquals(ScopeState.JOINED, scope.state());
        if (token instanceof Forwarding) {
            assertEquals(3, ((Forwarding) token).associations.get());
            assertEquals(3, ((Forwarding) token).dissociations.get());
        }
    }

    @ParameterizedTest(name = "forwarding = {0}")
    @ValueSource(booleans = {false, true})
    @DisplayName("spawnFuture: the work sees the scope's stop; its value reaches the consumer")
    void spawnFuture_stopAndValue(boolean forwarding) {
        CountingScope scope = new CountingScope();
        AsyncScopeToken token = token(scope.getToken(), forwarding);
        ManualSender<String> work = new ManualSender<>(true);
        Sender<String> f = Scopes.spawnFuture(work, token);
        assertEquals(1, scope.count());
        ManualSender<String> other = new ManualSender<>(true);
        Sender<String> g = Scopes.spawnFuture(other, token);
        assertEquals(work.receiver().getClass(), other.receiver().getClass());
        TestReceiver<String> consumer = TestReceiver.start(f);
        work.complete("v");
        assertEquals("v", consumer.value());
        scope.requestStop();
        assertEquals(1, other.stopsSeen(), "the scope's stop reached the future's work");
        assertEquals(TestReceiver.Kind.STOPPED, TestReceiver.start(g).kind());
        assertEquals(0, scope.count());
    }

    @ParameterizedTest(name = "forwarding = {0}")
    @ValueSource(booleans = {false, true})
    @DisplayName("nest: associated until its operation completes, stopped by the scope")
    void nest_countAndStop(boolean forwarding) {
        CountingScope scope = new CountingScope();
        AsyncScopeToken token = token(scope.getToken(), forwarding);
        ManualSender<Integer> work = new ManualSender<>(true);
        NestSender<Integer> n = Scopes.nest(work, token);
        assertTrue(n.isAssociated());
        assertEquals(1, scope.count());
        TestReceiver<Integer> r = TestReceiver.start(n);
        scope.requestStop();
        assertEquals(TestReceiver.Kind.STOPPED, r.kind());
        assertEquals(0, scope.count());
        for (int i = 0; i < 2_000; i++) { // more than a batch: batches work for any token
            assertTrue(Scopes.nest(Senders.just(i), token).discard());
        }
        assertEquals(0, scope.count());
    }

    @ParameterizedTest(name = "forwarding = {0}")
    @ValueSource(booleans = {false, true})
    @DisplayName("named work spawned through the token is listed by the scope, as spawn or spawnFuture")
    void namedWork_listedWithItsKind(boolean forwarding) {
        CountingScope scope = new CountingScope();
        AsyncScopeToken token = token(scope.getToken(), forwarding);
        ManualSender<String> a = new ManualSender<>(true);
        ManualSender<String> b = new ManualSender<>(true);
        assertTrue(Scopes.spawn(Scopes.named(a, "a"), token));
        Sender<String> f = Scopes.spawnFuture(Scopes.named(b, "b"), token);
        List<OutstandingWork> listed = scope.outstanding();
        assertEquals(2, listed.size());
        for (OutstandingWork w : listed) {
            assertEquals(w.name().orElseThrow().equals("a") ? "spawn" : "spawnFuture", w.kind(), w.toString());
        }
        scope.requestStop();
        assertEquals(TestReceiver.Kind.STOPPED, TestReceiver.start(f).kind());
        assertEquals(List.of(), scope.outstanding());
        assertEquals(0, scope.count());
    }
}
