package dev.senders.scope;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.Sender;
import dev.senders.Senders;
import dev.senders.internal.Trampoline;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A loop that spawns the next piece of work from the completion of the previous one, over inline
 * senders, runs on one thread at any length: the spawn path shares the per-thread trampoline, so
 * the stack stays bounded and no association is left behind. On the JVM's default thread stack.
 */
@DisplayName("spawn: loops of spawns from completions are stack safe")
class SpawnStackSafetyTest {

    private static final int LOOP = 1_000_000;

    /** Item {@code i}: an inline sender whose completion spawns item {@code i + 1}, up to {@code n}. */
    private static Sender<Integer> item(int i, int n, AsyncScopeToken token, AtomicInteger ran, Thread thread) {
        return Senders.just(i).then(v -> {
            assertSame(thread, Thread.currentThread(), "every item runs on the spawning thread");
            ran.incrementAndGet();
            if (v + 1 < n) {
                assertTrue(Scopes.spawn(item(v + 1, n, token, ran, thread), token));
            }
            return v;
        });
    }

    /** Runs the spawn loop into {@code token}'s scope; then its count must be zero and a join must end it. */
    private static void spawnLoop(AsyncScopeToken token, LongSupplier count, Sender<Void> join, Supplier<ScopeState> state) {
        AtomicInteger ran = new AtomicInteger();
        assertTrue(Scopes.spawn(item(0, LOOP, token, ran, Thread.currentThread()), token));
        assertEquals(LOOP, ran.get(), "every item ran before the first spawn returned");
        assertEquals(0, count.getAsLong(), "no association left behind");
        Senders.syncWait(join);
        assertEquals(ScopeState.JOINED, state.get());
    }

    @Test
    @DisplayName("SimpleCountingScope: 1,000,000 spawns, each from the previous one's completion, run inline;"
            + " count returns to 0 and join ends")
    void simpleScope_spawnLoopOfAMillionIsStackSafe() {
        SimpleCountingScope scope = new SimpleCountingScope();
        spawnLoop(scope.getToken(), scope::count, scope.join(), scope::state);
    }

    @Test
    @DisplayName("CountingScope: 1,000,000 spawns, each from the previous one's completion, run inline;"
            + " count returns to 0 and join ends")
    void countingScope_spawnLoopOfAMillionIsStackSafe() {
        CountingScope scope = new CountingScope();
        spawnLoop(scope.getToken(), scope::count, scope.join(), scope::state);
    }

    /** As {@link #item}, but each item spawns its successor with {@code spawnFuture} (the future is dropped). */
    private static Sender<Integer> futureItem(int i, int n, AsyncScopeToken token, AtomicInteger ran) {
        return Senders.just(i).then(v -> {
            ran.incrementAndGet();
            if (v + 1 < n) {
                Scopes.spawnFuture(futureItem(v + 1, n, token, ran), token);
            }
            return v;
        });
    }

    @Test
    @DisplayName("spawnFuture: 1,000,000 futures, each spawned from the previous one's completion, run inline;"
            + " count returns to 0")
    void spawnFuture_loopOfAMillionIsStackSafe() {
        CountingScope scope = new CountingScope();
        AtomicInteger ran = new AtomicInteger();
        Sender<Integer> first = Scopes.spawnFuture(futureItem(0, LOOP, scope.getToken(), ran), scope.getToken());
        assertEquals(LOOP, ran.get());
        assertEquals(0, Senders.syncWait(first), "the first future delivers its value");
        assertEquals(0, scope.count(), "no association left behind");
        Senders.syncWait(scope.join());
        assertEquals(ScopeState.JOINED, scope.state());
    }

    @Test
    @Timeout(value = 20, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    @DisplayName("a spawn at any depth of a spawn loop, followed by a blocking syncWait on that work, does not deadlock")
    void deepSpawnThenSyncWait_doesNotWaitForItself() {
        // every nesting depth up to 40: at some of them the innermost spawn's start is queued on
        // the trampoline, and the syncWait after it must run it rather than wait for it
        for (int depth = 0; depth <= 40; depth++) {
            SimpleCountingScope outer = new SimpleCountingScope();
            AtomicInteger inner = new AtomicInteger();
            Sender<Integer> s = Senders.just(depth).then(v -> {
                SimpleCountingScope other = new SimpleCountingScope();
                assertTrue(Scopes.spawn(Senders.just(1).then(x -> inner.incrementAndGet()), other.getToken()));
                Senders.syncWait(other.join()); // ends only once the spawned work ran
                return v;
            });
            for (int i = depth - 1; i >= 0; i--) {
                Sender<Integer> next = s;
                s = Senders.just(i).then(v -> {
                    assertTrue(Scopes.spawn(next, outer.getToken()));
                    return v;
                });
            }
            assertTrue(Scopes.spawn(s, outer.getToken()));
            assertEquals(1, inner.get(), "depth " + depth);
            assertEquals(0, outer.count(), "depth " + depth);
            Senders.syncWait(outer.join());
        }
    }

    private static void atTrampolineMaxDepth(Runnable body, int frames) {
        if (frames == 0) {
            body.run();
        } else {
            Trampoline.run(() -> atTrampolineMaxDepth(body, frames - 1));
        }
    }

    @Test
    @DisplayName("a queued spawn whose start throws: the error goes to the scope's handler and the association"
            + " is released (there is no caller to throw to)")
    void queuedSpawnWhoseStartThrows_isTheWorksError() {
        List<Throwable> errors = new CopyOnWriteArrayList<>();
        SimpleCountingScope scope = new SimpleCountingScope(errors::add);
        IllegalStateException boom = new IllegalStateException("start threw");
        Sender<Integer> broken = r -> () -> {
            throw boom;
        };
        atTrampolineMaxDepth(() -> assertTrue(Scopes.spawn(broken, scope.getToken())), Trampoline.DEFAULT_MAX_DEPTH);
        assertEquals(List.of(boom), errors);
        assertEquals(1, scope.errorCount());
        assertEquals(0, scope.count(), "no association left behind");
        Senders.syncWait(scope.join());
    }
}
