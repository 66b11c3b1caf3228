package dev.senders.reactor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.scope.CountingScope;
import dev.senders.scope.RefusalReason;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.test.StepVerifier;

/** A full scope ({@code maxOutstanding}) refuses on every Reactor path as a closed one does. */
class BoundedScopeTest {

    @Test
    void spawnIntoAFullScope_returnsRefused_andNeverSubscribes() {
        CountingScope scope = CountingScope.builder().maxOutstanding(1).build();
        Sinks.Empty<Void> held = Sinks.empty();
        assertFalse(ReactorScopes.spawn(held.asMono(), scope.getToken()).isDisposed());
        AtomicInteger subscribed = new AtomicInteger();
        Disposable refused = ReactorScopes.spawn(Mono.fromRunnable(subscribed::incrementAndGet), scope.getToken());
        assertSame(ReactorScopes.REFUSED, refused);
        assertEquals(0, subscribed.get());
        assertEquals(1, scope.refusedCount(RefusalReason.FULL));
        held.tryEmitEmpty();
        assertEquals(0, scope.count());
        ReactorScopes.spawn(Mono.fromRunnable(subscribed::incrementAndGet), scope.getToken());
        assertEquals(1, subscribed.get(), "a freed slot is taken again");
    }

    @Test
    void nestIntoAFullScope_failsWithCancellation_likeAClosedScope() {
        CountingScope scope = CountingScope.builder().maxOutstanding(1).build();
        Sinks.Empty<Void> held = Sinks.empty();
        ReactorScopes.spawn(held.asMono(), scope.getToken());
        StepVerifier.create(ReactorScopes.nest(Mono.just(1), scope.getToken()))
                .verifyErrorSatisfies(e -> {
                    assertTrue(e instanceof java.util.concurrent.CancellationException, e.toString());
                    assertTrue(e.getMessage().contains("maxOutstanding"), e.getMessage());
                });
        assertEquals(1, scope.refusedCount(RefusalReason.FULL));
        held.tryEmitEmpty();
    }

    @Test
    void theCompositeViewOfAFullScope_disposesTheAddedItem_andReturnsFalse() {
        CountingScope scope = CountingScope.builder().maxOutstanding(1).build();
        Disposable.Composite view = ReactorScopes.asComposite(scope);
        AtomicBoolean first = new AtomicBoolean();
        AtomicBoolean second = new AtomicBoolean();
        assertTrue(view.add(() -> first.set(true)));
        assertFalse(view.add(() -> second.set(true)));
        assertTrue(second.get(), "the refused item is disposed, as by a disposed composite");
        assertFalse(first.get());
        assertFalse(view.isDisposed(), "a full scope's view is not disposed: it takes items again once one leaves");
        assertEquals(1, scope.refusedCount(RefusalReason.FULL));
    }
}
