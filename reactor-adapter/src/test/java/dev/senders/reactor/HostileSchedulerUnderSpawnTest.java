package dev.senders.reactor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.ProtocolViolationException;
import dev.senders.Scheduler;
import dev.senders.Sender;
import dev.senders.Senders;
import dev.senders.scope.CountingScope;
import dev.senders.testkit.Broken.NullScheduleScheduler;
import dev.senders.testkit.Broken;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Hooks;
import reactor.core.publisher.Mono;

/**
 * {@code subscribeOn(ReactorSchedulers.toReactor(s))} under {@code ReactorScopes.spawn}, where
 * {@code s} refuses the work (a rejecting executor) or is broken ({@code schedule()} returns null):
 * the refusal reaches the scope's error handler and {@code errorCount}, and the join ends.
 */
class HostileSchedulerUnderSpawnTest {

    static final Duration HANG_GUARD = Duration.ofSeconds(10);


    final List<Throwable> handled = new CopyOnWriteArrayList<>();
    final List<Throwable> droppedByReactor = new CopyOnWriteArrayList<>();

    @BeforeEach
    void captureDropped() {
        Hooks.onErrorDropped(droppedByReactor::add);
    }

    @AfterEach
    void resetHooks() {
        Hooks.resetOnErrorDropped();
    }



    static List<Arguments> sources() {
        BiConsumer<reactor.core.scheduler.Scheduler, CountingScope> mono = (s, scope) ->
                ReactorScopes.spawn(Mono.just(1).subscribeOn(s), scope.getToken());
        BiConsumer<reactor.core.scheduler.Scheduler, CountingScope> flux = (s, scope) ->
                ReactorScopes.spawn(Flux.just(1, 2).subscribeOn(s), scope.getToken());
        BiConsumer<reactor.core.scheduler.Scheduler, CountingScope> publishOn = (s, scope) ->
                ReactorScopes.spawn(Flux.just(1, 2).publishOn(s), scope.getToken());
        return List.of(Arguments.of("Mono.subscribeOn", mono), Arguments.of("Flux.subscribeOn", flux),
                Arguments.of("Flux.publishOn", publishOn));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("sources")
    void aRejectingSchedulerUnderSpawn_reachesTheScopesHandlerAndTheJoinEnds(String name,
            BiConsumer<reactor.core.scheduler.Scheduler, CountingScope> spawn) {
        CountingScope scope = new CountingScope(handled::add);
        spawn.accept(ReactorSchedulers.toReactor(Broken.rejectingScheduler()), scope);
        assertTimeoutPreemptively(HANG_GUARD, () -> {
            scope.close();
            Senders.syncWait(scope.join());
        });
        assertEquals(1, handled.size(), () -> "the refusal reaches the scope's handler; Reactor dropped " + droppedByReactor);
        assertTrue(Broken.causedBy(handled.get(0), RejectedExecutionException.class, ""), handled.get(0).toString());
        assertEquals(1, scope.errorCount());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("sources")
    void aBrokenSchedulerUnderSpawn_reachesTheScopesHandlerWithAViolationNamingIt(String name,
            BiConsumer<reactor.core.scheduler.Scheduler, CountingScope> spawn) {
        CountingScope scope = new CountingScope(handled::add);
        spawn.accept(ReactorSchedulers.toReactor(new NullScheduleScheduler()), scope);
        assertTimeoutPreemptively(HANG_GUARD, () -> {
            scope.close();
            Senders.syncWait(scope.join());
        });
        assertEquals(1, handled.size(), () -> "Reactor dropped " + droppedByReactor);
        assertTrue(Broken.causedBy(handled.get(0), ProtocolViolationException.class, NullScheduleScheduler.class.getName()),
                handled.get(0).toString());
    }

    @Test
    void aSenderWhoseConnectReturnsNullIsAViolationAtTheReactorBoundary() {
        Sender<Integer> broken = new Broken.NullConnectSender<>();
        Throwable e = assertTimeoutPreemptively(HANG_GUARD,
                () -> assertThrows(RuntimeException.class, () -> ReactorSenders.toMono(broken).block(HANG_GUARD)));
        assertTrue(Broken.causedBy(e, ProtocolViolationException.class, "connect returned null"), e.toString());
    }
}
