package dev.senders.scope;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.Env;
import dev.senders.InplaceStopSource;
import dev.senders.OperationState;
import dev.senders.Receiver;
import dev.senders.Sender;
import dev.senders.Senders;
import dev.senders.testkit.ManualSender;
import dev.senders.testkit.TestReceiver;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("P3149R6 [exec.nest] nest")
class NestTest {

    @Test
    @DisplayName("nest does not start (nor connect) its sender, and increments the count before returning")
    void nest_doesNotStartItsSender() {
        SimpleCountingScope scope = new SimpleCountingScope();
        ManualSender<String> child = new ManualSender<>();
        NestSender<String> n = Scopes.nest(child, scope.getToken());
        assertTrue(n.isAssociated());
        assertEquals(1, scope.count());
        assertEquals(ScopeState.OPEN, scope.state());
        assertEquals(0, child.connects());
        assertEquals(0, child.starts());
        TestReceiver<String> r = new TestReceiver<>();
        OperationState op = n.connect(r);
        assertEquals(0, child.starts(), "connect does not start either");
        op.start();
        assertEquals(1, child.starts());
        child.complete("v");
        assertEquals("v", r.value());
        assertEquals(0, scope.count());
        Senders.syncWait(scope.join());
    }

    @Test
    @DisplayName("an unassociated nest completes stopped without connecting or running the child")
    void unassociatedNest_completesStoppedWithoutRunningChild() {
        SimpleCountingScope scope = new SimpleCountingScope();
        scope.close();
        ManualSender<String> child = new ManualSender<>();
        NestSender<String> n = Scopes.nest(child, scope.getToken());
        assertFalse(n.isAssociated());
        assertEquals(0, scope.count());
        assertEquals(ScopeState.UNUSED_AND_CLOSED, scope.state());
        for (int i = 0; i < 2; i++) {
            TestReceiver<String> r = new TestReceiver<>();
            n.connect(r).start();
            assertEquals(TestReceiver.Kind.STOPPED, r.kind());
        }
        assertEquals(0, child.connects());
        assertEquals(0, child.starts());
    }

    @Test
    @DisplayName("nest has the same completions as its sender: value, error and stopped pass through")
    void nest_forwardsAllCompletions() {
        SimpleCountingScope scope = new SimpleCountingScope();
        IllegalStateException boom = new IllegalStateException("boom");
        TestReceiver<Object> e = new TestReceiver<>();
        Scopes.nest(Senders.justError(boom), scope.getToken()).connect(e).start();
        assertSame(boom, e.error());
        TestReceiver<Object> s = new TestReceiver<>();
        Scopes.nest(Senders.justStopped(), scope.getToken()).connect(s).start();
        assertEquals(TestReceiver.Kind.STOPPED, s.kind());
        assertEquals(0, scope.count());
        Senders.syncWait(scope.join());
    }

    @Test
    @DisplayName("copying (re-connecting) an associated multi-shot nest sender re-associates, and completes stopped once closed")
    void reconnect_reassociates_andFailsOnceClosed() {
        SimpleCountingScope scope = new SimpleCountingScope();
        ManualSender<Integer> child = new ManualSender<>();
        NestSender<Integer> n = Scopes.nest(child, scope.getToken());
        assertEquals(1, scope.count());
        OperationState first = n.connect(new TestReceiver<>());
        assertEquals(1, scope.count(), "the first connect takes over nest's association");
        TestReceiver<Integer> r2 = new TestReceiver<>();
        OperationState second = n.connect(r2);
        assertEquals(2, scope.count(), "a further connect associates anew");
        first.start();
        second.start();
        child.started().get(0).setValue(1);
        child.started().get(1).setValue(2);
        assertEquals(2, r2.value());
        assertEquals(0, scope.count());
        scope.close();
        TestReceiver<Integer> r3 = new TestReceiver<>();
        int connectsBefore = child.connects();
        n.connect(r3).start();
        assertEquals(TestReceiver.Kind.STOPPED, r3.kind());
        assertEquals(connectsBefore, child.connects(), "the child is not connected when re-association fails");
        assertEquals(0, scope.count());
        Senders.syncWait(scope.join());
    }

    @Test
    @DisplayName("the decrement happens after the child operation is finished with and the receiver returned")
    void decrement_afterChildOperationFinished() {
        SimpleCountingScope scope = new SimpleCountingScope();
        List<Object> log = new ArrayList<>();
        AtomicReference<WeakReference<OperationState>> childOp = new AtomicReference<>();
        Sender<String> child = r -> {
            OperationState op = new OperationState() {
                @Override
                public void start() {
                    log.add("child completes, count=" + scope.count());
                    r.setValue("x");
                }
            };
            childOp.set(new WeakReference<>(op));
            return op;
        };
        TestReceiver<Void> join = new TestReceiver<>();
        Receiver<String> downstream = new Receiver<>() {
            @Override
            public void setValue(String v) {
                log.add("receiver runs, count=" + scope.count() + ", joined=" + join.isDone());
            }

            @Override
            public void setError(Throwable e) {}

            @Override
            public void setStopped() {}
        };
        NestSender<String> n = Scopes.nest(child, scope.getToken());
        OperationState op = n.connect(downstream);
        scope.join().connect(join).start();
        op.start();
        log.add("after, count=" + scope.count() + ", joined=" + join.isDone());
        assertEquals(List.of("child completes, count=1", "receiver runs, count=1, joined=false",
                "after, count=0, joined=true"), log);
        // the nest operation dropped its reference to the child op before decrementing
        assertTrue(Gc.awaitCondition(() -> childOp.get().get() == null),
                "the nest operation must not retain the child operation after completion");
    }

    @Test
    @DisplayName("discard() releases nest's association at once; a later connect re-associates")
    void discard_releasesAssociation() {
        SimpleCountingScope scope = new SimpleCountingScope();
        NestSender<String> n = Scopes.nest(Senders.just("a"), scope.getToken());
        assertEquals(1, scope.count());
        assertTrue(n.discard());
        assertFalse(n.discard(), "idempotent");
        assertEquals(0, scope.count());
        TestReceiver<String> r = new TestReceiver<>();
        n.connect(r).start();
        assertEquals("a", r.value());
        assertEquals(0, scope.count());
        scope.close();
        TestReceiver<String> r2 = new TestReceiver<>();
        n.connect(r2).start();
        assertEquals(TestReceiver.Kind.STOPPED, r2.kind());
        Senders.syncWait(scope.join());
    }

    @Test
    @DisplayName("discard() after the first connect does nothing: the operation owns the association")
    void discard_afterConnect_isNoOp() {
        SimpleCountingScope scope = new SimpleCountingScope();
        NestSender<String> n = Scopes.nest(Senders.just("a"), scope.getToken());
        OperationState op = n.connect(new TestReceiver<>());
        assertFalse(n.discard());
        assertEquals(1, scope.count());
        op.start();
        assertEquals(0, scope.count());
        Senders.syncWait(scope.join());
    }

    @Test
    @DisplayName("a nest sender that is never connected releases its association when unreachable (Cleaner)")
    void neverConnectedNest_releasedWhenUnreachable() {
        SimpleCountingScope scope = new SimpleCountingScope();
        nestAndDrop(scope);
        assertEquals(1, scope.count());
        assertTrue(Gc.awaitCondition(() -> scope.count() == 0));
        Senders.syncWait(scope.join());
    }

    @Test
    @DisplayName("thousands of dropped nest senders and unstarted operations (several Cleaner batches) are all released")
    void manyDroppedNestSenders_allReleased() {
        CountingScope scope = new CountingScope();
        List<NestSender<Void>> kept = new ArrayList<>();
        for (int i = 0; i < 5000; i++) {
            NestSender<Void> n = Scopes.nest(Senders.just(), scope.getToken());
            if (i % 3 == 0) {
                n.connect(new TestReceiver<>()); // connected, never started, dropped
            } else if (i % 3 == 1) {
                n.connect(new TestReceiver<>()).start(); // completed: released at once
            }
            if (i % 1000 == 0) {
                kept.add(n);
            }
        }
        assertTrue(scope.count() > 0);
        for (NestSender<Void> n : kept) {
            n.discard();
        }
        kept.clear();
        assertTrue(Gc.awaitCondition(() -> scope.count() == 0), () -> "still associated: " + scope.count());
        Senders.syncWait(scope.join());
    }

    @Test
    @DisplayName("race: discard() vs connect+start vs a second connect on another thread; every association released exactly once (looped)")
    void race_discardVsConnect() throws Exception {
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(2);
        try {
            for (int round = 0; round < 2000; round++) {
                SimpleCountingScope scope = new SimpleCountingScope();
                NestSender<String> n = Scopes.nest(Senders.just("v"), scope.getToken());
                java.util.concurrent.CyclicBarrier b = new java.util.concurrent.CyclicBarrier(3);
                TestReceiver<String> r1 = new TestReceiver<>();
                TestReceiver<String> r2 = new TestReceiver<>();
                var f1 = pool.submit(() -> {
                    b.await();
                    n.connect(r1).start();
                    return null;
                });
                var f2 = pool.submit(() -> {
                    b.await();
                    n.connect(r2).start();
                    return null;
                });
                b.await();
                n.discard();
                f1.get();
                f2.get();
                assertEquals("v", r1.value());
                assertEquals("v", r2.value());
                assertEquals(0, scope.count());
                Senders.syncWait(scope.join());
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private static void nestAndDrop(SimpleCountingScope scope) {
        Scopes.nest(Senders.just(), scope.getToken());
    }

    @Test
    @DisplayName("a nest operation connected but never started releases the association when dropped (Cleaner)")
    void connectedNeverStarted_releasedWhenDropped() {
        SimpleCountingScope scope = new SimpleCountingScope();
        NestSender<Void> n = Scopes.nest(Senders.just(), scope.getToken());
        connectAndDrop(n); // the further connect's own association
        assertEquals(2, scope.count());
        n = null;
        assertTrue(Gc.awaitCondition(() -> scope.count() == 0));
        Senders.syncWait(scope.join());
    }

    private static void connectAndDrop(NestSender<Void> n) {
        n.connect(new TestReceiver<>()); // first connect: takes nest's association
        n.connect(new TestReceiver<>()); // second: a new association
    }

    @Test
    @DisplayName("[exec.counting.scope] nest on a counting_scope: stop reaches the child from the scope and from the receiver")
    void countingScopeNest_stopFromEitherSide() {
        CountingScope scope = new CountingScope();
        TestReceiver<Object> r1 = new TestReceiver<>();
        Scopes.nest(TestSenders.untilStopped(), scope.getToken()).connect(r1).start();
        InplaceStopSource own = new InplaceStopSource();
        TestReceiver<Object> r2 = new TestReceiver<>(TestSenders.stopEnv(own.token()));
        Scopes.nest(TestSenders.untilStopped(), scope.getToken()).connect(r2).start();
        own.requestStop();
        assertEquals(TestReceiver.Kind.STOPPED, r2.kind(), "the receiver's own stop reaches the child");
        assertFalse(r1.isDone());
        scope.requestStop();
        assertEquals(TestReceiver.Kind.STOPPED, r1.kind(), "the scope's stop reaches the child");
        assertEquals(0, scope.count());
        Senders.syncWait(scope.join());
    }

    @Test
    @DisplayName("nest keeps the receiver's env for the child")
    void nest_forwardsEnv() {
        SimpleCountingScope scope = new SimpleCountingScope();
        dev.senders.Query<String> key = dev.senders.Query.named("key");
        TestReceiver<String> r = new TestReceiver<>(Env.of(key, "v"));
        Scopes.nest(Senders.read(key), scope.getToken()).connect(r).start();
        assertEquals("v", r.value());
        Senders.syncWait(scope.join());
    }

    @Test
    @DisplayName("a throwing wrap leaves the scope unchanged (strong guarantee)")
    void throwingWrap_leavesScopeUnchanged() {
        SimpleCountingScope scope = new SimpleCountingScope();
        AsyncScopeToken inner = scope.getToken();
        AsyncScopeToken bad = new AsyncScopeToken() {
            @Override
            public boolean tryAssociate() {
                return inner.tryAssociate();
            }

            @Override
            public void dissociate() {
                inner.dissociate();
            }

            @Override
            public <T> Sender<T> wrap(Sender<T> s) {
                throw new UnsupportedOperationException("wrap");
            }
        };
        assertThrows(UnsupportedOperationException.class, () -> Scopes.nest(Senders.just(), bad));
        assertEquals(0, scope.count());
        Senders.syncWait(scope.join());
    }

    @Test
    @DisplayName("P3149 [exec.nest] + C1: a receiver that throws from setValue gets the error, and the association is released exactly once")
    void nest_throwingReceiverReleasesTheAssociationOnce() {
        SimpleCountingScope scope = new SimpleCountingScope();
        AsyncScopeToken token = scope.getToken();
        assertTrue(token.tryAssociate());   // another piece of work, still running
        List<Throwable> errors = new ArrayList<>();
        IllegalStateException thrown = new IllegalStateException("receiver rejects the value");
        Scopes.nest(Senders.just("v"), token).connect(new Receiver<String>() {
            @Override
            public void setValue(String value) {
                throw thrown;
            }

            @Override
            public void setError(Throwable error) {
                errors.add(error);
            }

            @Override
            public void setStopped() {
                errors.add(new AssertionError("stopped"));
            }
        }).start();
        assertEquals(List.of(thrown), errors);
        assertEquals(1, scope.count(), "only the nest's own association is released; the other work's stays");
        token.dissociate();
        scope.close();
        Senders.syncWait(scope.join());
    }
}
