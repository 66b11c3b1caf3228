package dev.senders.spring.boot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.senders.Hooks;
import dev.senders.Senders;
import dev.senders.scope.CountingScope;
import dev.senders.scope.Scopes;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** The errors of a scope reach the listeners of its own logger (test support), and no other scope's. */
class SpawnErrorLoggerTest {

    @Test
    void aListenerSeesEachErrorOfItsLoggersScopeUntilItsRegistrationIsClosed() {
        SpawnErrorLogger logger = new SpawnErrorLogger("orders");
        CountingScope scope = new CountingScope("orders", logger);
        List<String> seen = new CopyOnWriteArrayList<>();
        SpawnErrorLogger.Registration r = logger.listen(error -> seen.add(error.getMessage()));
        try {
            Scopes.spawn(Senders.justError(new IllegalStateException("boom")), scope.getToken());
            assertEquals(List.of("boom"), seen);
        } finally {
            r.close();
        }
        Scopes.spawn(Senders.justError(new IllegalStateException("after")), scope.getToken());
        assertEquals(List.of("boom"), seen, "a closed registration sees nothing more");
        assertEquals(2, scope.errorCount());
    }

    @Test
    void twoScopesOfTheSameNameDoNotSeeEachOthersErrors() {
        SpawnErrorLogger first = new SpawnErrorLogger("application");
        SpawnErrorLogger second = new SpawnErrorLogger("application");
        CountingScope firstScope = new CountingScope("application", first);
        List<String> seenBySecond = new CopyOnWriteArrayList<>();
        SpawnErrorLogger.Registration r = second.listen(error -> seenBySecond.add(error.getMessage()));
        try {
            Scopes.spawn(Senders.justError(new IllegalStateException("first's")), firstScope.getToken());
        } finally {
            r.close();
        }
        assertEquals(List.of(), seenBySecond);
    }

    @Test
    void aThrowingListenerGoesToTheDroppedErrorHookAndTheOthersStillRun() {
        SpawnErrorLogger logger = new SpawnErrorLogger("orders");
        CountingScope scope = new CountingScope("orders", logger);
        List<Throwable> dropped = new CopyOnWriteArrayList<>();
        List<String> seen = new CopyOnWriteArrayList<>();
        IllegalArgumentException listenerBug = new IllegalArgumentException("listener bug");
        Consumer<? super Throwable> before = Hooks.getOnErrorDropped();
        Hooks.setOnErrorDropped(dropped::add);
        SpawnErrorLogger.Registration bad = logger.listen(error -> {
            throw listenerBug;
        });
        SpawnErrorLogger.Registration good = logger.listen(error -> seen.add(error.getMessage()));
        try {
            Scopes.spawn(Senders.justError(new IllegalStateException("boom")), scope.getToken());
        } finally {
            bad.close();
            good.close();
            Hooks.setOnErrorDropped(before);
        }
        assertEquals(List.of("boom"), seen);
        assertEquals(1, dropped.size());
        assertSame(listenerBug, dropped.get(0));
        assertEquals(1, scope.errorCount());
    }
}
