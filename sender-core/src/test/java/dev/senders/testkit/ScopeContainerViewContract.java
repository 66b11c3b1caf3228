package dev.senders.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.Senders;
import dev.senders.scope.CountingScope;
import dev.senders.scope.ScopeState;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The contract of a container view of a {@link CountingScope} towards the scope, shared by
 * RxJava's {@code RxScopes.asContainer} and Reactor's {@code ReactorScopes.asComposite}: each
 * adapter extends this class once, binding its view and its {@code Disposable} type, so both are
 * held to the same rules by the same tests. Test support, not published API.
 *
 * @param <V> the view type
 * @param <D> the library's {@code Disposable} type
 */
public abstract class ScopeContainerViewContract<V, D> {

    static final Duration HANG_GUARD = Duration.ofSeconds(10);

    /** A new view over {@code scope}. */
    protected abstract V view(CountingScope scope);

    /** A member that runs {@code onDispose} each time it is disposed. */
    protected abstract D member(Runnable onDispose);

    protected abstract boolean add(V view, D member);

    /** Forgets {@code member} without disposing it (Reactor's {@code remove}, RxJava's {@code delete}). */
    protected abstract boolean forget(V view, D member);

    protected abstract void dispose(V view);

    protected abstract boolean isDisposed(V view);

    protected abstract int size(V view);

    /** A member that counts its disposals. */
    protected final class Counted {
        public final AtomicInteger disposals = new AtomicInteger();
        public final D member = member(disposals::incrementAndGet);
    }

    @Test
    public void aHeldMemberIsAssociatedWithTheScopeUntilItIsForgotten() {
        CountingScope scope = new CountingScope();
        V v = view(scope);
        Counted m = new Counted();
        assertTrue(add(v, m.member));
        assertEquals(1, scope.count());
        assertEquals(1, size(v));
        assertTrue(forget(v, m.member));
        assertEquals(0, scope.count());
        assertEquals(0, m.disposals.get(), "forgetting does not dispose");
        scope.close();
        Senders.syncWait(scope.join());
    }

    @Test
    public void theScopesRequestStopDisposesEveryHeldMemberAndReleasesIt() {
        CountingScope scope = new CountingScope();
        V v = view(scope);
        Counted a = new Counted();
        Counted b = new Counted();
        add(v, a.member);
        add(v, b.member);
        scope.requestStop();
        assertEquals(1, a.disposals.get());
        assertEquals(1, b.disposals.get());
        assertEquals(0, size(v));
        assertEquals(0, scope.count());
        assertFalse(isDisposed(v), "the view itself was not disposed");
        scope.close();
        assertTimeoutPreemptively(HANG_GUARD, () -> Senders.syncWait(scope.join()));
    }

    @Test
    public void afterTheScopesRequestStopAddDisposesTheMemberAndReturnsFalse() {
        CountingScope scope = new CountingScope();
        V v = view(scope);
        scope.requestStop();
        Counted m = new Counted();
        assertFalse(add(v, m.member));
        assertEquals(1, m.disposals.get());
        assertEquals(0, scope.count());
        assertEquals(0, size(v));
    }

    @Test
    public void addToAClosedScopeDisposesTheMemberAndReturnsFalse() {
        CountingScope scope = new CountingScope();
        V v = view(scope);
        scope.close();
        Counted m = new Counted();
        assertFalse(add(v, m.member));
        assertEquals(1, m.disposals.get());
        assertEquals(0, scope.count());
    }

    @Test
    public void theDeadlineRecipeEnds_closeJoinWithADeadlineThenRequestStop() throws Exception {
        CountingScope scope = new CountingScope();
        V v = view(scope);
        Counted m = new Counted();
        add(v, m.member);
        scope.close();
        CompletableFuture<Void> joined = Senders.toCompletableFuture(scope.join());
        try {
            joined.get(50, TimeUnit.MILLISECONDS);
            throw new AssertionError("joined while a member was held");
        } catch (TimeoutException late) {
            scope.requestStop();
        }
        assertTimeoutPreemptively(HANG_GUARD, () -> joined.join());
        assertEquals(1, m.disposals.get());
        assertEquals(ScopeState.JOINED, scope.state());
    }

    @Test
    public void disposingTheViewClosesTheScopeDisposesTheMembersAndRequestsStop() {
        CountingScope scope = new CountingScope();
        V v = view(scope);
        Counted m = new Counted();
        add(v, m.member);
        dispose(v);
        assertTrue(isDisposed(v));
        assertEquals(1, m.disposals.get());
        assertTrue(scope.stopToken().stopRequested());
        assertFalse(scope.state().isOpen());
        assertEquals(0, scope.count());
        Counted late = new Counted();
        assertFalse(add(v, late.member));
        assertEquals(1, late.disposals.get());
        dispose(v); // idempotent
        assertEquals(1, m.disposals.get());
        assertTimeoutPreemptively(HANG_GUARD, () -> Senders.syncWait(scope.join()));
    }

    @Test
    public void twoViewsOverOneScopeHoldTheirOwnMembersAndBothObeyItsStop() {
        CountingScope scope = new CountingScope();
        V v1 = view(scope);
        V v2 = view(scope);
        Counted a = new Counted();
        Counted b = new Counted();
        add(v1, a.member);
        add(v2, b.member);
        assertEquals(1, size(v1));
        assertEquals(1, size(v2));
        assertFalse(forget(v1, b.member), "v1 does not hold v2's member");
        scope.requestStop();
        assertEquals(1, a.disposals.get());
        assertEquals(1, b.disposals.get());
        assertEquals(0, scope.count());
    }

    @Test
    public void addRacingTheScopesRequestStop_leavesNoMemberHoldingTheCount() throws Exception {
        for (int round = 0; round < 200; round++) {
            CountingScope scope = new CountingScope();
            V v = view(scope);
            List<Counted> ms = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                ms.add(new Counted());
            }
            CyclicBarrier start = new CyclicBarrier(2);
            Thread adder = new Thread(() -> {
                await(start);
                for (Counted m : ms) {
                    add(v, m.member);
                }
            });
            adder.start();
            await(start);
            scope.requestStop();
            adder.join(HANG_GUARD.toMillis());
            assertEquals(0, scope.count(), "round " + round);
            for (Counted m : ms) {
                assertEquals(1, m.disposals.get(), "round " + round + ": every member disposed exactly once");
            }
            scope.close();
            assertTimeoutPreemptively(HANG_GUARD, () -> Senders.syncWait(scope.join()));
        }
    }

    private static void await(CyclicBarrier b) {
        try {
            b.await(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }
}
