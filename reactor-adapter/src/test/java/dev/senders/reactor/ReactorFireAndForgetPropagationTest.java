package dev.senders.reactor;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.scope.FireAndForgetMode;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import reactor.core.CoreSubscriber;
import reactor.core.publisher.Hooks;
import reactor.core.publisher.Mono;

/**
 * {@link FireAndForget}'s last-operator hook under Reactor's automatic context propagation, which
 * wraps subscribers to restore thread locals. Needs {@code io.micrometer:context-propagation} on
 * the class path: it runs in the {@code context-propagation} surefire execution of this module,
 * which adds it, and not in the default one, whose tests run without it (the path most
 * applications without Micrometer take).
 */
class ReactorFireAndForgetPropagationTest extends HookTestFixture {

    @Test
    void underAutomaticContextPropagationLambdaSubscriptionsToReactorsAndToForeignSourcesAreFound() {
        assertDoesNotThrow(() -> Class.forName("io.micrometer.context.ContextRegistry"),
                "this test needs io.micrometer:context-propagation: run it through this module's"
                        + " context-propagation surefire execution (mvn test), not with -Dtest");
        Hooks.enableAutomaticContextPropagation();
        try {
            install(FireAndForgetMode.TRACK);
            AtomicReference<Object> seen = new AtomicReference<>();
            Mono.just("reactor's").map(x -> x).subscribe(seen::set);
            assertEquals("reactor's", seen.get());
            assertEquals(1, tracker.foundCount());
            AtomicReference<String> given = new AtomicReference<>();
            Mono<String> foreign = new Mono<>() {
                @Override
                public void subscribe(CoreSubscriber<? super String> actual) {
                    given.set(actual.getClass().getName());
                    Mono.just("foreign").subscribe(actual);
                }
            };
            foreign.subscribe(seen::set);
            assertEquals("foreign", seen.get());
            assertEquals(2, tracker.foundCount(), "found before Reactor wraps the subscriber to restore thread locals");
            assertTrue(given.get().contains("RestoringThreadLocals"), "the foreign source restores thread locals as without the hook: "
                    + given.get());
            assertEquals("block", Mono.just("block").block());
            assertEquals(2, tracker.foundCount());
        } finally {
            Hooks.disableAutomaticContextPropagation();
        }
    }
}
