package dev.senders.scope;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.Hooks;
import dev.senders.InplaceStopSource;
import dev.senders.Query;
import dev.senders.Scheduler;
import dev.senders.Schedulers;
import dev.senders.Sender;
import dev.senders.Senders;
import dev.senders.testkit.ManualSender;
import dev.senders.testkit.TestReceiver;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("P3296R3 let_async_scope")
class LetAsyncScopeTest {

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
    @DisplayName("spawned work sees the receiver's env with the scope's stop token, connected to spawn's receiver directly (no stopWhen per child)")
    void spawnedWork_seesScopeToken_withoutPerChildStopWhen() {
        Query<String> key = Query.named("key");
        InplaceStopSource outer = new InplaceStopSource();
        ManualSender<Void> work = new ManualSender<>();
        TestReceiver<Integer> r = new TestReceiver<>(dev.senders.Env.of(key, "v"), outer);
        TestReceiver.startWith(Scopes.letAsyncScope(token -> {
            Scopes.spawn(work, token);
            return Senders.just(1);
        }), r);
        assertTrue(work.receiver() instanceof SpawnReceiver, "no stopWhen operation between spawn and the work");
        assertEquals("v", work.receiver().env().get(key), "the receiver's env reaches spawned work (P3296R3)");
        dev.senders.StopToken seen = work.receiver().env().stopToken();
        assertTrue(seen.stopPossible());
        outer.requestStop();
        assertTrue(seen.stopRequested(), "the receiver's stop reaches spawned work through the scope's token");
        work.stop();
        assertTrue(r.isDone());
    }

    @Test
    @DisplayName("completes with the body's value only after all spawned work completed (the scope is always joined)")
    void value_afterAllSpawnedWork() {
        Scheduler sch = Schedulers.fromExecutor(POOL);
        AtomicInteger done = new AtomicInteger();
        int v = Senders.syncWait(Scopes.letAsyncScope(token -> {
            for (int i = 0; i < 100; i++) {
                Scopes.spawn(TestSenders.fromCallable(done::incrementAndGet).startsOn(sch), token);
            }
            return Senders.just(13);
        }));
        assertEquals(13, v);
        assertEquals(100, done.get());
    }

    @Test
    @DisplayName("an error of spawned work becomes the result, replaces the body's value, and requests stop on the rest")
    void spawnedError_becomesResult_andStopsTheRest() {
        RuntimeException boom = new RuntimeException("boom");
        AtomicBoolean otherStopped = new AtomicBoolean();
        RuntimeException e = assertThrows(RuntimeException.class, () -> Senders.syncWait(Scopes.letAsyncScope(token -> {
            Scopes.spawn(r -> () -> r.env().stopToken().onStop(() -> {
                otherStopped.set(true);
                r.setStopped();
            }), token);
            Scopes.spawn(Senders.justError(boom), token);
            return Senders.just("ignored");
        })));
        assertSame(boom, e);
        assertTrue(otherStopped.get());
    }

    @Test
    @DisplayName("a throwing callable: stop is requested on what it spawned, the scope is joined, then the error is delivered")
    void throwingCallable_stopsJoinsThenErrors() {
        IllegalStateException boom = new IllegalStateException("maybe_throw");
        AtomicBoolean spawnedEnded = new AtomicBoolean();
        AtomicReference<Boolean> endedBeforeResult = new AtomicReference<>();
        Sender<Object> s = Scopes.letAsyncScope(token -> {
            Scopes.spawn(TestSenders.beforeCompletion(
                    TestSenders.untilStopped().startsOn(Schedulers.fromExecutor(POOL)),
                    () -> spawnedEnded.set(true)), token);
            throw boom;
        });
        TestReceiver<Object> probe = new TestReceiver<>();
        s.connect(new dev.senders.Receiver<Object>() {
            @Override
            public void setValue(Object v) {
                probe.setValue(v);
            }

            @Override
            public void setError(Throwable e) {
                endedBeforeResult.set(spawnedEnded.get());
                probe.setError(e);
            }

            @Override
            public void setStopped() {
                probe.setStopped();
            }
        }).start();
        probe.await();
        assertSame(boom, probe.error());
        assertEquals(Boolean.TRUE, endedBeforeResult.get(), "spawned work ended before the result was delivered");
        assertEquals(1, probe.completions());
    }

    @Test
    @DisplayName("two errors: one of them wins, the other is discarded")
    void twoErrors_oneWins() {
        RuntimeException foo = new RuntimeException("foo");
        RuntimeException bar = new RuntimeException("bar");
        RuntimeException e = assertThrows(RuntimeException.class, () -> Senders.syncWait(Scopes.letAsyncScope(token -> {
            Scopes.spawn(Senders.justError(foo), token);
            Scopes.spawn(Senders.justError(bar), token);
            return Senders.just();
        })));
        assertTrue(e == foo || e == bar);
    }

    @Test
    @DisplayName("the body's error is the result; a stopped body gives stopped")
    void bodyErrorAndStopped() {
        RuntimeException boom = new RuntimeException("boom");
        assertSame(boom, assertThrows(RuntimeException.class,
                () -> Senders.syncWait(Scopes.letAsyncScope(t -> Senders.justError(boom)))));
        assertThrows(CancellationException.class, () -> Senders.syncWait(Scopes.letAsyncScope(t -> Senders.justStopped())));
    }

    @Test
    @DisplayName("a stop request on the receiver reaches all work associated with the scope")
    void receiverStop_reachesAssociatedWork() {
        InplaceStopSource stop = new InplaceStopSource();
        AtomicInteger stopped = new AtomicInteger();
        TestReceiver<Object> r = new TestReceiver<>(TestSenders.stopEnv(stop.token()));
        Scopes.letAsyncScope(token -> {
            for (int i = 0; i < 3; i++) {
                Scopes.spawn(rr -> () -> rr.env().stopToken().onStop(() -> {
                    stopped.incrementAndGet();
                    rr.setStopped();
                }), token);
            }
            return TestSenders.untilStopped();
        }).connect(r).start();
        assertTrue(!r.isDone());
        stop.requestStop();
        assertEquals(3, stopped.get());
        assertEquals(TestReceiver.Kind.STOPPED, r.kind());
    }

    @Test
    @DisplayName("a stop request on the receiver reaches nested senders and spawnFuture work of the scope too")
    void receiverStop_reachesNestedAndFutureWork() {
        InplaceStopSource stop = new InplaceStopSource();
        ManualSender<Object> futureWork = new ManualSender<>();
        ManualSender<Object> nestedWork = new ManualSender<>();
        TestReceiver<Object> nestConsumer = new TestReceiver<>();
        TestReceiver<Object> r = new TestReceiver<>(TestSenders.stopEnv(stop.token()));
        Scopes.letAsyncScope(token -> {
            Sender<Object> f = Scopes.spawnFuture(futureWork, token);
            Scopes.spawn(f, token); // the future's result is consumed by spawned work
            Scopes.nest(nestedWork, token).connect(nestConsumer).start();
            return Senders.just();
        }).connect(r).start();
        assertTrue(!r.isDone());
        stop.requestStop();
        assertTrue(futureWork.receiver().env().stopToken().stopRequested(), "spawnFuture work saw the stop");
        assertTrue(nestedWork.receiver().env().stopToken().stopRequested(), "nested work saw the stop");
        futureWork.receiver().setStopped();
        nestedWork.receiver().setStopped();
        assertEquals(TestReceiver.Kind.STOPPED, nestConsumer.kind());
        assertEquals(TestReceiver.Kind.VALUE, r.kind(), "no error: the body's value, after the join");
    }

    @Test
    @DisplayName("the receiver's env is propagated to spawned work")
    void envPropagatedToSpawnedWork() {
        Query<String> key = Query.named("key");
        AtomicReference<String> seen = new AtomicReference<>();
        TestReceiver<Object> r = new TestReceiver<>(dev.senders.Env.of(key, "v"));
        Scopes.letAsyncScope(token -> {
            Scopes.spawn(Senders.read(key).then(v -> {
                seen.set(v);
                return v;
            }), token);
            return Senders.just();
        }).connect(r).start();
        assertEquals("v", seen.get());
        assertEquals(TestReceiver.Kind.VALUE, r.kind());
    }

    @Test
    @DisplayName("let_async_scope_with_error<E>: permitted errors become the result")
    void typed_permittedError() {
        IOException io = new IOException("io");
        CompletionException e = assertThrows(CompletionException.class, () -> Senders.syncWait(
                Scopes.letAsyncScope(IOException.class, token -> {
                    Scopes.spawn(Senders.justError(io), token);
                    return Senders.just();
                })));
        assertSame(io, e.getCause());
    }

    @Test
    @DisplayName("let_async_scope_with_error<E>: other errors go to Hooks.onErrorDropped, request stop, and the result is stopped")
    void typed_otherErrorsDropped() {
        List<Throwable> dropped = new CopyOnWriteArrayList<>();
        Hooks.setOnErrorDropped(dropped::add);
        UncheckedIOException other = new UncheckedIOException(new IOException("x"));
        AtomicBoolean stopSeen = new AtomicBoolean();
        assertThrows(CancellationException.class, () -> Senders.syncWait(
                Scopes.letAsyncScope(IOException.class, token -> {
                    Scopes.spawn(r -> () -> r.env().stopToken().onStop(() -> {
                        stopSeen.set(true);
                        r.setStopped();
                    }), token);
                    Scopes.spawn(Senders.justError(other), token);
                    return Senders.just("v");
                })));
        assertEquals(List.of(other), dropped);
        assertTrue(stopSeen.get());
    }

    @Test
    @DisplayName("a token kept after the result was delivered can no longer associate work")
    void leakedToken_isClosed() {
        AtomicReference<AsyncScopeToken> kept = new AtomicReference<>();
        Senders.syncWait(Scopes.letAsyncScope(token -> {
            kept.set(token);
            return Senders.just();
        }));
        ManualSender<Void> work = new ManualSender<>();
        assertTrue(!Scopes.spawn(work, kept.get()));
        assertEquals(0, work.connects());
    }

    @Test
    @DisplayName("a multi-shot let_async_scope sender makes a fresh scope per start")
    void multiShot_freshScopePerStart() {
        AtomicInteger n = new AtomicInteger();
        Sender<Integer> s = Scopes.letAsyncScope(token -> {
            Scopes.spawn(TestSenders.fromCallable(n::incrementAndGet), token);
            return Senders.just(1);
        });
        assertEquals(1, Senders.syncWait(s));
        assertEquals(1, Senders.syncWait(s));
        assertEquals(2, n.get());
    }

    @Test
    @org.junit.jupiter.api.DisplayName("[exec.recv] + P3296: a body sender that completes twice is reported and releases nothing twice; the result is the first completion")
    void letAsyncScope_bodyCompletingTwiceIsReported() {
        java.util.List<Throwable> dropped = new java.util.concurrent.CopyOnWriteArrayList<>();
        dev.senders.Hooks.setOnErrorDropped(dropped::add);
        try {
            dev.senders.Sender<Integer> twice = r -> () -> {
                r.setValue(1);
                r.setValue(2);
            };
            Integer result = dev.senders.Senders.syncWait(Scopes.letAsyncScope(token -> twice));
            org.junit.jupiter.api.Assertions.assertEquals(1, result);
            org.junit.jupiter.api.Assertions.assertEquals(1, dropped.size(), () -> "dropped: " + dropped);
            org.junit.jupiter.api.Assertions.assertInstanceOf(dev.senders.ProtocolViolationException.class, dropped.get(0));
        } finally {
            dev.senders.Hooks.resetOnErrorDropped();
        }
    }
}
