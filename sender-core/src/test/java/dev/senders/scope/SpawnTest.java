package dev.senders.scope;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.Env;
import dev.senders.Hooks;
import dev.senders.InplaceStopSource;
import dev.senders.OperationState;
import dev.senders.Query;
import dev.senders.Scheduler;
import dev.senders.Schedulers;
import dev.senders.Sender;
import dev.senders.Senders;
import dev.senders.testkit.ManualSender;
import dev.senders.testkit.TestReceiver;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("P3149R6 [exec.spawn] spawn")
class SpawnTest {

    private static final ExecutorService POOL = Executors.newFixedThreadPool(2);

    @AfterAll
    static void shutdown() {
        POOL.shutdownNow();
    }

    @AfterEach
    void resetHooks() {
        Hooks.resetOnErrorDropped();
    }

    @Test
    @DisplayName("spawn starts eagerly and holds the count until the operation completes")
    void spawn_eagerStart_countHeldUntilCompletion() {
        SimpleCountingScope scope = new SimpleCountingScope();
        ManualSender<String> work = new ManualSender<>();
        assertTrue(Scopes.spawn(work, scope.getToken()));
        assertEquals(1, work.starts(), "started before spawn returns");
        assertEquals(1, scope.count());
        TestReceiver<Void> join = new TestReceiver<>();
        scope.join().connect(join).start();
        assertFalse(join.isDone());
        work.complete("ignored value");
        assertTrue(join.isDone());
        assertEquals(0, scope.count());
    }

    @Test
    @DisplayName("spawn after close never connects or runs the sender, and returns false")
    void spawnAfterClose_neverRunsTheSender() {
        for (ScopeState s : new ScopeState[] {ScopeState.UNUSED_AND_CLOSED, ScopeState.CLOSED, ScopeState.JOINED}) {
            SimpleCountingScope scope = new SimpleCountingScope();
            if (s == ScopeState.CLOSED) {
                assertTrue(Scopes.spawn(Senders.just(), scope.getToken()));
            }
            if (s == ScopeState.JOINED) {
                Senders.syncWait(scope.join());
            } else {
                scope.close();
            }
            ManualSender<Void> work = new ManualSender<>();
            assertFalse(Scopes.spawn(work, scope.getToken()));
            assertEquals(0, work.connects());
            assertEquals(0, work.starts());
            assertEquals(0, scope.count());
            Senders.syncWait(scope.join());
        }
    }

    @Test
    @DisplayName("an error from spawned work goes to the scope's handler, is counted, and precedes the decrement")
    void spawnError_goesToScopeHandler_andIsCounted() {
        List<Throwable> seen = new CopyOnWriteArrayList<>();
        SimpleCountingScope[] holder = new SimpleCountingScope[1];
        Consumer<Throwable> handler = e -> {
            seen.add(e);
            assertEquals(1, holder[0].count(), "the handler runs before the association is released");
        };
        SimpleCountingScope scope = new SimpleCountingScope(handler);
        holder[0] = scope;
        IllegalStateException boom = new IllegalStateException("boom");
        Scopes.spawn(Senders.justError(boom), scope.getToken());
        Scopes.spawn(Senders.justStopped(), scope.getToken());
        Scopes.spawn(Senders.just("v"), scope.getToken());
        assertEquals(List.of(boom), seen);
        assertEquals(1, scope.errorCount());
        Senders.syncWait(scope.join());
    }

    @Test
    @DisplayName("an error from spawned work goes to the env's SPAWN_ERROR_HANDLER first")
    void spawnError_envHandlerWins() {
        List<Throwable> scopeSeen = new CopyOnWriteArrayList<>();
        List<Throwable> envSeen = new CopyOnWriteArrayList<>();
        SimpleCountingScope scope = new SimpleCountingScope(scopeSeen::add);
        Env env = Env.of(Scopes.SPAWN_ERROR_HANDLER, envSeen::add);
        RuntimeException boom = new RuntimeException("boom");
        Scopes.spawn(Senders.justError(boom), scope.getToken(), env);
        assertEquals(List.of(boom), envSeen);
        assertTrue(scopeSeen.isEmpty());
        assertEquals(1, scope.errorCount());
        Senders.syncWait(scope.join());
    }

    @Test
    @DisplayName("without a handler, an error from spawned work goes to Hooks.onErrorDropped (never vanishes)")
    void spawnError_defaultsToHooks() {
        List<Throwable> dropped = new CopyOnWriteArrayList<>();
        Hooks.setOnErrorDropped(dropped::add);
        CountingScope scope = new CountingScope();
        RuntimeException boom = new RuntimeException("boom");
        Scopes.spawn(Senders.justError(boom), scope.getToken());
        assertEquals(List.of(boom), dropped);
        assertEquals(1, scope.errorCount());
        Senders.syncWait(scope.join());
    }

    @Test
    @DisplayName("default Hooks: an error from spawned work reaches the thread's uncaught-exception handler")
    void spawnError_defaultReachesUncaughtExceptionHandler() throws Exception {
        List<Throwable> seen = new CopyOnWriteArrayList<>();
        SimpleCountingScope scope = new SimpleCountingScope();
        RuntimeException boom = new RuntimeException("boom");
        Thread t = new Thread(() -> Scopes.spawn(Senders.justError(boom), scope.getToken()));
        t.setUncaughtExceptionHandler((th, e) -> seen.add(e));
        t.start();
        t.join();
        assertEquals(List.of(boom), seen);
        Senders.syncWait(scope.join());
    }

    @Test
    @DisplayName("a throwing error handler does not lose the association nor the error")
    void throwingHandler_reportedToHooks() {
        List<Throwable> dropped = new CopyOnWriteArrayList<>();
        Hooks.setOnErrorDropped(dropped::add);
        SimpleCountingScope scope = new SimpleCountingScope(e -> {
            throw new IllegalArgumentException("handler");
        });
        RuntimeException boom = new RuntimeException("boom");
        Scopes.spawn(Senders.justError(boom), scope.getToken());
        assertEquals(1, dropped.size());
        assertSame(boom, dropped.get(0).getSuppressed()[0]);
        assertEquals(0, scope.count());
        Senders.syncWait(scope.join());
    }

    @Test
    @DisplayName("a throwing connect releases the association and propagates")
    void throwingConnect_releasesAssociation() {
        SimpleCountingScope scope = new SimpleCountingScope();
        Sender<Void> bad = r -> {
            throw new UnsupportedOperationException("connect");
        };
        assertThrows(UnsupportedOperationException.class, () -> Scopes.spawn(bad, scope.getToken()));
        assertEquals(0, scope.count());
        Senders.syncWait(scope.join());
    }

    @Test
    @DisplayName("the spawned operation is not retained by the scope (no per-child registry)")
    void spawnedOperation_notRetained() {
        SimpleCountingScope scope = new SimpleCountingScope();
        java.lang.ref.WeakReference<?>[] ref = new java.lang.ref.WeakReference<?>[1];
        ManualSender<Void> work = new ManualSender<>();
        Sender<Void> s = r -> {
            OperationState op = work.connect(r);
            ref[0] = new java.lang.ref.WeakReference<>(op);
            return op;
        };
        Scopes.spawn(s, scope.getToken());
        work.complete(null);
        work.started().clear();
        assertTrue(Gc.awaitCondition(() -> ref[0].get() == null));
        Senders.syncWait(scope.join());
    }

    @Test
    @DisplayName("spawn with an env: the work sees it (and, for a counting scope, the scope's stop token)")
    void spawn_env_isVisibleToWork() {
        Query<String> key = Query.named("key");
        CountingScope scope = new CountingScope();
        AtomicInteger seen = new AtomicInteger();
        Scopes.spawn(Senders.read(key).then(v -> {
            assertEquals("v", v);
            return seen.incrementAndGet();
        }), scope.getToken(), Env.of(key, "v"));
        assertEquals(1, seen.get());
        ManualSender<Void> work = new ManualSender<>();
        Scopes.spawn(work, scope.getToken(), Env.of(key, "v"));
        assertFalse(work.receiver().env().stopToken().stopRequested());
        scope.requestStop();
        assertTrue(work.receiver().env().stopToken().stopRequested());
        work.complete(null);
        Senders.syncWait(scope.join());
    }

    @Test
    @DisplayName("[exec.counting.scope] request_stop reaches work associated before and after the request")
    void requestStop_reachesWorkBeforeAndAfter() {
        CountingScope scope = new CountingScope();
        AtomicInteger stopped = new AtomicInteger();
        Sender<Object> work = TestSenders.<Object>untilStopped().letError(e -> Senders.just(null));
        Sender<Object> counted = r -> work.connect(new dev.senders.Receiver<Object>() {
            @Override
            public void setValue(Object v) {
                r.setValue(v);
            }

            @Override
            public void setError(Throwable e) {
                r.setError(e);
            }

            @Override
            public void setStopped() {
                stopped.incrementAndGet();
                r.setStopped();
            }

            @Override
            public dev.senders.Env env() {
                return r.env();
            }
        });
        Scopes.spawn(counted, scope.getToken());
        Scopes.spawn(counted, scope.getToken());
        assertEquals(2, scope.count());
        scope.requestStop();
        assertEquals(2, stopped.get(), "work associated before the request is stopped");
        assertEquals(0, scope.count());
        Scopes.spawn(counted, scope.getToken());
        assertEquals(3, stopped.get(), "work associated after the request sees stop at once");
        assertEquals(ScopeState.OPEN, scope.state(), "request_stop does not close the scope");
        Senders.syncWait(scope.join());
    }

    @Test
    @DisplayName("[exec.counting.scope] wrap is stop_when(scope token): spawned with the default env, the work sees the scope's own stop (nothing to combine)")
    void countingScopeSpawn_defaultEnv_workSeesTheScopeTokenItself() {
        CountingScope scope = new CountingScope();
        ManualSender<Void> work = new ManualSender<>();
        Scopes.spawn(work, scope.getToken());
        assertTrue(work.receiver() instanceof SpawnReceiver,
                "the work is connected to spawn's receiver directly: no stopWhen operation per spawn");
        assertSame(work.receiver(), work.receiver().env().stopToken(),
                "the token the work sees is its spawn receiver: a view of the scope's stop source (decision U3)");
        ManualSender<Void> withOwnToken = new ManualSender<>();
        InplaceStopSource own = new InplaceStopSource();
        Scopes.spawn(withOwnToken, scope.getToken(), TestSenders.stopEnv(own.token()));
        assertFalse(withOwnToken.receiver().env().stopToken() == scope.stopToken(),
                "an env with another stoppable token still gets stop_when's combined token");
        scope.requestStop();
        assertTrue(work.receiver().env().stopToken().stopRequested());
        assertTrue(withOwnToken.receiver().env().stopToken().stopRequested());
        work.complete(null);
        withOwnToken.complete(null);
        Senders.syncWait(scope.join());
    }

    @Test
    @DisplayName("own receiver stop and scope stop both reach counting-scope work (stop_when)")
    void stopWhen_eitherToken() {
        CountingScope scope = new CountingScope();
        InplaceStopSource own = new InplaceStopSource();
        ManualSender<Void> work = new ManualSender<>();
        Scopes.spawn(work, scope.getToken(), TestSenders.stopEnv(own.token()));
        var token = work.receiver().env().stopToken();
        assertFalse(token.stopRequested());
        own.requestStop();
        assertTrue(token.stopRequested());
        work.complete(null);
        Senders.syncWait(scope.join());
    }

    // ---------------------------------------------------------------- the paper's tree example

    static final class Tree {
        Tree left;
        Tree right;
        final int data;

        Tree(int data) {
            this.data = data;
        }
    }

    /** A complete binary tree with {@code n} nodes. */
    static Tree makeTree(int n) {
        Tree[] nodes = new Tree[n];
        for (int i = 0; i < n; i++) {
            nodes[i] = new Tree(i);
        }
        for (int i = 0; i < n; i++) {
            if (2 * i + 1 < n) {
                nodes[i].left = nodes[2 * i + 1];
            }
            if (2 * i + 2 < n) {
                nodes[i].right = nodes[2 * i + 2];
            }
        }
        return nodes[0];
    }

    static Sender<Void> process(AsyncScopeToken scope, Scheduler sch, Tree t, AtomicInteger done) {
        return sch.schedule().<Void>then(v -> {
            if (t.left != null) {
                Scopes.spawn(process(scope, sch, t.left, done), scope);
            }
            if (t.right != null) {
                Scopes.spawn(process(scope, sch, t.right, done), scope);
            }
            done.incrementAndGet(); // do_stuff(t.data)
            return null;
        }).letError(e -> Senders.<Void>just(null));
    }

    @Test
    @DisplayName("Examples: recursively spawning work until completion (counting_scope), 256 x 1024 spawns on a 2-thread pool, all done before join completes")
    void recursiveSpawn_allDoneBeforeJoin() {
        Scheduler sch = Schedulers.fromExecutor(POOL);
        for (int round = 0; round < 256; round++) {
            CountingScope scope = new CountingScope();
            AtomicInteger done = new AtomicInteger();
            Tree t = makeTree(1024);
            Scopes.spawn(process(scope.getToken(), sch, t, done), scope.getToken());
            Senders.syncWait(scope.join());
            assertEquals(1024, done.get(), "every node processed before join completed");
            assertEquals(ScopeState.JOINED, scope.state());
            assertEquals(0, scope.count());
        }
    }

    @Test
    @DisplayName("race: spawn from two threads vs close + join; every started task completed before join")
    void race_spawnVsCloseAndJoin() throws Exception {
        for (int round = 0; round < 300; round++) {
            SimpleCountingScope scope = new SimpleCountingScope();
            AtomicInteger started = new AtomicInteger();
            AtomicInteger finished = new AtomicInteger();
            AtomicBoolean joined = new AtomicBoolean();
            Sender<Void> task = r -> () -> {
                started.incrementAndGet();
                POOL.execute(() -> {
                    assertFalse(joined.get());
                    finished.incrementAndGet();
                    r.setValue(null);
                });
            };
            var f = POOL.submit(() -> {
                while (Scopes.spawn(task, scope.getToken())) {
                    Thread.onSpinWait();
                }
            });
            Scopes.spawn(task, scope.getToken());
            scope.close();
            Senders.syncWait(scope.join().then(v -> {
                joined.set(true);
                return v;
            }));
            assertEquals(started.get(), finished.get());
            f.get();
        }
    }
}
