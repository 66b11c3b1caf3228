package dev.senders.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.OperationState;
import dev.senders.Receiver;
import dev.senders.Sender;
import dev.senders.scope.CountingScope;
import dev.senders.scope.NestSender;
import dev.senders.scope.Scopes;
import dev.senders.scope.SimpleCountingScope;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * A scope holds no reference to finished work: once a spawned / nested / future operation has
 * completed and the caller has let go of it, the sender, its operation and its payload become
 * collectable while the scope itself is still alive (checked with {@link WeakReference}s and
 * {@code System.gc()} in a bounded loop; the loop is a hang guard, not a timing assertion).
 */
class ScopeRetentionTest {

    /** A payload-carrying sender whose operation parks itself in a slot until the test completes it. */
    static final class Parked implements Sender<Object> {
        final Object payload;
        final AtomicReference<ParkedOp> slot;

        Parked(Object payload, AtomicReference<ParkedOp> slot) {
            this.payload = payload;
            this.slot = slot;
        }

        @Override
        public OperationState connect(Receiver<? super Object> r) {
            return new ParkedOp(payload, r, slot);
        }
    }

    static final class ParkedOp implements OperationState {
        final Object payload;
        final Receiver<? super Object> r;
        final AtomicReference<ParkedOp> slot;

        ParkedOp(Object payload, Receiver<? super Object> r, AtomicReference<ParkedOp> slot) {
            this.payload = payload;
            this.r = r;
            this.slot = slot;
        }

        @Override
        public void start() {
            slot.set(this);
        }

        void complete() {
            r.setValue(payload);
        }
    }

    static final class Payload {
        final byte[] bytes = new byte[64 * 1024];
    }

    /** What the test keeps: only weak references, plus the slot through which it completes the work. */
    static final class Refs {
        final List<WeakReference<?>> weak = new ArrayList<>();
        final AtomicReference<ParkedOp> slot = new AtomicReference<>();

        void track(Object o) {
            weak.add(new WeakReference<>(o));
        }

        /** Completes the parked work (on another thread) and forgets it. */
        void completeElsewhere() throws InterruptedException {
            ParkedOp op = slot.getAndSet(null);
            track(op);
            Thread t = new Thread(op::complete, "retention-completer");
            op = null;
            t.start();
            t.join(10_000);
            assertTrue(!t.isAlive(), "completion hung");
        }

        boolean allCleared() {
            return weak.stream().allMatch(w -> w.get() == null);
        }
    }

    static boolean awaitWithGc(BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (System.nanoTime() < deadline) {
            if (condition.getAsBoolean()) {
                return true;
            }
            System.gc();
            byte[][] garbage = new byte[32][];
            for (int i = 0; i < garbage.length; i++) {
                garbage[i] = new byte[16 * 1024];
            }
            Thread.sleep(20);
        }
        return condition.getAsBoolean();
    }

    /** Joins the scope at the end (a scope dropped unjoined would be reported as leaked). */
    static void closeAndJoin(Sender<Void> join, Runnable close) {
        close.run();
        assertNull(dev.senders.Senders.syncWait(join));
    }

    // Each "issue" method runs in its own frame, so no local of the test method keeps the work alive.

    static void spawnParked(SimpleCountingScope scope, Refs refs) {
        Payload payload = new Payload();
        Parked sender = new Parked(payload, refs.slot);
        refs.track(payload);
        refs.track(sender);
        assertTrue(Scopes.spawn(sender, scope.getToken()));
    }

    static void spawnRefused(SimpleCountingScope scope, Refs refs) {
        for (int i = 0; i < 100; i++) {
            Payload payload = new Payload();
            Parked sender = new Parked(payload, new AtomicReference<>());
            refs.track(payload);
            refs.track(sender);
            assertFalse(Scopes.spawn(sender, scope.getToken()), "the full scope refuses");
        }
    }

    @Test
    @DisplayName("spawn into a full scope: the scope keeps no reference to refused work (an overload leaves the heap as it found it)")
    void spawn_refusedWorkIsCollectable() throws Exception {
        SimpleCountingScope scope = SimpleCountingScope.builder().maxOutstanding(1).build();
        Refs held = new Refs();
        spawnParked(scope, held);
        Refs refused = new Refs();
        spawnRefused(scope, refused);
        assertEquals(100, scope.refusedCount());
        assertTrue(awaitWithGc(refused::allCleared), "refused work still reachable");
        assertEquals(1, scope.count(), "the held work is untouched");
        held.completeElsewhere();
        closeAndJoin(scope.join(), scope::close);
    }

    @Test
    @DisplayName("P3149 spawn: the scope keeps no reference to finished work (sender, operation and payload collectable)")
    void spawn_finishedWorkIsCollectable() throws Exception {
        SimpleCountingScope scope = new SimpleCountingScope();
        Refs refs = new Refs();
        spawnParked(scope, refs);
        assertEquals(1, scope.count());
        refs.completeElsewhere();
        assertEquals(0, scope.count());
        assertTrue(awaitWithGc(refs::allCleared), "finished spawned work still reachable");
        assertEquals(0, scope.count()); // the scope is alive and usable
        assertTrue(Scopes.spawn(dev.senders.Senders.just(), scope.getToken()));
        closeAndJoin(scope.join(), scope::close);
    }

    static void nestParked(CountingScope scope, Refs refs, AtomicReference<Object> received) {
        Payload payload = new Payload();
        Parked sender = new Parked(payload, refs.slot);
        NestSender<Object> nest = Scopes.nest(sender, scope.getToken());
        Receiver<Object> receiver = new Receiver<>() {
            @Override
            public void setValue(Object v) {
                received.set(new WeakReference<>(v));
            }

            @Override
            public void setError(Throwable e) {
                received.set(e);
            }

            @Override
            public void setStopped() {
                received.set("stopped");
            }
        };
        OperationState op = nest.connect(receiver);
        refs.track(payload);
        refs.track(sender);
        refs.track(nest);
        refs.track(op);
        refs.track(receiver);
        op.start();
    }

    @Test
    @DisplayName("P3149 nest: the scope keeps no reference to a finished nest sender, its operation, receiver or payload")
    void nest_finishedWorkIsCollectable() throws Exception {
        CountingScope scope = new CountingScope();
        Refs refs = new Refs();
        AtomicReference<Object> received = new AtomicReference<>();
        nestParked(scope, refs, received);
        assertEquals(1, scope.count());
        refs.completeElsewhere();
        assertEquals(0, scope.count());
        assertTrue(received.get() instanceof WeakReference, "nest receiver got " + received.get());
        assertTrue(awaitWithGc(refs::allCleared), "finished nested work still reachable");
        assertNull(((WeakReference<?>) received.get()).get());
        assertEquals(0, scope.count());
        closeAndJoin(scope.join(), scope::close);
    }

    static void futureParked(SimpleCountingScope scope, Refs refs, AtomicReference<Object> received) {
        Payload payload = new Payload();
        Parked sender = new Parked(payload, refs.slot);
        Sender<Object> future = Scopes.spawnFuture(sender, scope.getToken());
        Receiver<Object> consumer = new Receiver<>() {
            @Override
            public void setValue(Object v) {
                received.set(new WeakReference<>(v));
            }

            @Override
            public void setError(Throwable e) {
                received.set(e);
            }

            @Override
            public void setStopped() {
                received.set("stopped");
            }
        };
        OperationState op = future.connect(consumer);
        refs.track(payload);
        refs.track(sender);
        refs.track(future);
        refs.track(op);
        refs.track(consumer);
        op.start();
    }

    @Test
    @DisplayName("P3149 spawnFuture: the scope keeps no reference to a consumed future, its work, consumer or value")
    void spawnFuture_finishedWorkIsCollectable() throws Exception {
        SimpleCountingScope scope = new SimpleCountingScope();
        Refs refs = new Refs();
        AtomicReference<Object> received = new AtomicReference<>();
        futureParked(scope, refs, received);
        assertEquals(1, scope.count());
        refs.completeElsewhere();
        assertEquals(0, scope.count());
        assertTrue(received.get() instanceof WeakReference, "consumer got " + received.get());
        assertTrue(awaitWithGc(refs::allCleared), "finished future work still reachable");
        assertEquals(0, scope.count());
        closeAndJoin(scope.join(), scope::close);
    }

    static void futureCompletedBeforeConsumer(SimpleCountingScope scope, Refs refs, AtomicReference<Sender<Object>> keep) {
        Payload payload = new Payload();
        Parked sender = new Parked(payload, refs.slot);
        keep.set(Scopes.spawnFuture(sender, scope.getToken()));
        refs.track(payload);
        refs.track(sender);
    }

    @Test
    @DisplayName("P3149 spawnFuture: a result waiting for its consumer is released once the consumer took it")
    void spawnFuture_resultHeldOnlyUntilConsumed() throws Exception {
        SimpleCountingScope scope = new SimpleCountingScope();
        Refs refs = new Refs();
        AtomicReference<Sender<Object>> keep = new AtomicReference<>();
        futureCompletedBeforeConsumer(scope, refs, keep);
        refs.completeElsewhere(); // the result now waits in the future for its consumer
        assertEquals(0, scope.count());
        AtomicReference<Object> got = new AtomicReference<>();
        keep.getAndSet(null).connect(new Receiver<Object>() {
            @Override
            public void setValue(Object v) {
                got.set(new WeakReference<>(v));
            }

            @Override
            public void setError(Throwable e) {
                got.set(e);
            }

            @Override
            public void setStopped() {
                got.set("stopped");
            }
        }).start();
        assertTrue(got.get() instanceof WeakReference, "consumer got " + got.get());
        assertTrue(awaitWithGc(refs::allCleared), "consumed result still reachable");
        assertSame(null, ((WeakReference<?>) got.get()).get());
        closeAndJoin(scope.join(), scope::close);
    }
}
