package dev.senders.reactor;

import dev.senders.scope.CountingScope;
import dev.senders.scope.FireAndForgetMode;
import dev.senders.scope.FireAndForgetTracker;
import org.junit.jupiter.api.AfterEach;
import reactor.core.publisher.Hooks;

/**
 * What the tests of {@link FireAndForget}'s last-operator hook share: a scope named {@code app},
 * the hook installed for it on request, and after each test the tracker closed, Reactor's
 * last-operator hooks reset and the scope stopped.
 */
abstract class HookTestFixture {

    final CountingScope scope = new CountingScope("app");
    FireAndForgetTracker tracker;

    void install(FireAndForgetMode mode) {
        tracker = FireAndForget.install(scope, mode, ReactorFireAndForgetTest.FRAMEWORK, false);
    }

    @AfterEach
    void tearDown() {
        if (tracker != null) {
            tracker.close();
        }
        Hooks.resetOnLastOperator();
        scope.requestStop();
    }
}
