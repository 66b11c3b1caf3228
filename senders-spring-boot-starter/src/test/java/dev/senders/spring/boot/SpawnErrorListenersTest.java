package dev.senders.spring.boot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.Hooks;
import dev.senders.Senders;
import dev.senders.scope.CountingScope;
import dev.senders.scope.Scopes;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** The errors of the starter's scope reach registered listeners (test support), with the scope's name. */
class SpawnErrorListenersTest {

    @Test
    void aListenerSeesEachLoggedErrorWithTheScopeNameUntilItsRegistrationIsClosed() {
        CountingScope scope = new CountingScope("orders", new SpawnErrorLogger("orders"));
        List<String> seen = new CopyOnWriteArrayList<>();
        IllegalStateException boom = new IllegalStateException("boom");
        SpawnErrorListeners.Registration r = SpawnErrorListeners.add((name, error) -> seen.add(name + ":" + error.getMessage()));
        try {
            Scopes.spawn(Senders.justError(boom), scope.getToken());
            assertEquals(List.of("orders:boom"), seen);
        } finally {
            r.close();
        }
        Scopes.spawn(Senders.justError(new IllegalStateException("after")), scope.getToken());
        assertEquals(List.of("orders:boom"), seen, "a closed registration sees nothing more");
        assertEquals(2, scope.errorCount());
    }

    @Test
    void aThrowingListenerGoesToTheDroppedErrorHookAndTheOthersStillRun() {
        CountingScope scope = new CountingScope("orders", new SpawnErrorLogger("orders"));
        List<Throwable> dropped = new CopyOnWriteArrayList<>();
        List<String> seen = new CopyOnWriteArrayList<>();
        IllegalArgumentException listenerBug = new IllegalArgumentException("listener bug");
        Consumer<? super Throwable> before = Hooks.getOnErrorDropped();
        Hooks.setOnErrorDropped(dropped::add);
        SpawnErrorListeners.Registration bad = SpawnErrorListeners.add((name, error) -> {
            throw listenerBug;
        });
        SpawnErrorListeners.Registration good = SpawnErrorListeners.add((name, error) -> seen.add(name));
        try {
            Scopes.spawn(Senders.justError(new IllegalStateException("boom")), scope.getToken());
        } finally {
            bad.close();
            good.close();
            Hooks.setOnErrorDropped(before);
        }
        assertEquals(List.of("orders"), seen);
        assertEquals(1, dropped.size());
        assertSame(listenerBug, dropped.get(0));
        assertTrue(scope.errorCount() == 1);
    }
}
