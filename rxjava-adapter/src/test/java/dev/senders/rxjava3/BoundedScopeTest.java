package dev.senders.rxjava3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.scope.CountingScope;
import dev.senders.scope.RefusalReason;
import io.reactivex.rxjava3.core.Completable;
import io.reactivex.rxjava3.disposables.Disposable;
import io.reactivex.rxjava3.subjects.CompletableSubject;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** A full scope ({@code maxOutstanding}) refuses on every RxJava path as a closed one does. */
class BoundedScopeTest {

    @Test
    void spawnIntoAFullScope_returnsRefused_andNeverSubscribes() {
        CountingScope scope = CountingScope.builder().maxOutstanding(1).build();
        CompletableSubject held = CompletableSubject.create();
        assertFalse(RxScopes.spawn(held, scope.getToken()).isDisposed());
        AtomicInteger subscribed = new AtomicInteger();
        Disposable refused = RxScopes.spawn(Completable.fromRunnable(subscribed::incrementAndGet), scope.getToken());
        assertSame(RxScopes.REFUSED, refused);
        assertEquals(0, subscribed.get());
        assertEquals(1, scope.refusedCount(RefusalReason.FULL));
        held.onComplete();
        assertEquals(0, scope.count());
        RxScopes.spawn(Completable.fromRunnable(subscribed::incrementAndGet), scope.getToken());
        assertEquals(1, subscribed.get(), "a freed slot is taken again");
    }

    @Test
    void theContainerViewOfAFullScope_disposesTheAddedItem_andReturnsFalse() {
        CountingScope scope = CountingScope.builder().maxOutstanding(1).build();
        ScopeContainer view = RxScopes.asContainer(scope);
        Disposable first = Disposable.empty();
        Disposable second = Disposable.empty();
        assertTrue(view.add(first));
        assertFalse(view.add(second));
        assertTrue(second.isDisposed(), "the refused item is disposed, as by a disposed CompositeDisposable");
        assertFalse(first.isDisposed());
        assertEquals(1, scope.refusedCount(RefusalReason.FULL));
        assertTrue(view.delete(first));
        assertTrue(view.add(Disposable.empty()), "a freed slot is taken again");
    }
}
