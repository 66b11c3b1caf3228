package dev.senders.rxjava3;

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
import io.reactivex.rxjava3.core.Completable;
import io.reactivex.rxjava3.core.Flowable;
import io.reactivex.rxjava3.core.Maybe;
import io.reactivex.rxjava3.core.Observable;
import io.reactivex.rxjava3.core.Single;
import io.reactivex.rxjava3.disposables.Disposable;
import io.reactivex.rxjava3.plugins.RxJavaPlugins;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.BiFunction;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code subscribeOn(RxSchedulers.toRx(s))} under {@code RxScopes.spawn}, where {@code s} refuses
 * the work (a rejecting executor) or is broken ({@code schedule()} returns null): the refusal
 * reaches the scope's error handler and {@code errorCount}, and the join ends; nothing hangs.
 */
class HostileSchedulerUnderSpawnTest {

    static final Duration HANG_GUARD = Duration.ofSeconds(10);


    final List<Throwable> plugin = new CopyOnWriteArrayList<>();
    final List<Throwable> handled = new CopyOnWriteArrayList<>();

    @BeforeEach
    void capturePluginErrors() {
        RxJavaPlugins.setErrorHandler(plugin::add);
    }

    @AfterEach
    void resetPlugins() {
        RxJavaPlugins.reset();
    }



    static List<Arguments> sources() {
        BiFunction<io.reactivex.rxjava3.core.Scheduler, CountingScope, Disposable> completable = (rx, scope) ->
                RxScopes.spawn(Completable.complete().subscribeOn(rx), scope.getToken());
        BiFunction<io.reactivex.rxjava3.core.Scheduler, CountingScope, Disposable> single = (rx, scope) ->
                RxScopes.spawn(Single.just(1).subscribeOn(rx), scope.getToken());
        BiFunction<io.reactivex.rxjava3.core.Scheduler, CountingScope, Disposable> maybe = (rx, scope) ->
                RxScopes.spawn(Maybe.just(1).subscribeOn(rx), scope.getToken());
        BiFunction<io.reactivex.rxjava3.core.Scheduler, CountingScope, Disposable> observable = (rx, scope) ->
                RxScopes.spawn(Observable.just(1).subscribeOn(rx), scope.getToken());
        BiFunction<io.reactivex.rxjava3.core.Scheduler, CountingScope, Disposable> flowable = (rx, scope) ->
                RxScopes.spawn(Flowable.just(1).subscribeOn(rx), scope.getToken());
        return List.of(Arguments.of("Completable", completable), Arguments.of("Single", single),
                Arguments.of("Maybe", maybe), Arguments.of("Observable", observable),
                Arguments.of("Flowable", flowable));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("sources")
    void subscribeOnARejectingSchedulerUnderSpawn_reachesTheScopesHandlerAndTheJoinEnds(String name,
            BiFunction<io.reactivex.rxjava3.core.Scheduler, CountingScope, Disposable> spawn) {
        CountingScope scope = new CountingScope(handled::add);
        spawn.apply(RxSchedulers.toRx(Broken.rejectingScheduler()), scope);
        assertEquals(1, handled.size(), "the refusal reaches the scope's handler: " + plugin);
        assertTrue(handled.get(0) instanceof RejectedExecutionException, handled.get(0).toString());
        assertEquals(1, scope.errorCount());
        assertEquals(0, scope.count());
        scope.close();
        assertTimeoutPreemptively(HANG_GUARD, () -> Senders.syncWait(scope.join()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("sources")
    void subscribeOnABrokenSchedulerUnderSpawn_reachesTheScopesHandlerWithAViolationNamingIt(String name,
            BiFunction<io.reactivex.rxjava3.core.Scheduler, CountingScope, Disposable> spawn) {
        CountingScope scope = new CountingScope(handled::add);
        spawn.apply(RxSchedulers.toRx(new NullScheduleScheduler()), scope);
        assertEquals(1, handled.size(), "the violation reaches the scope's handler: " + plugin);
        assertTrue(Broken.causedBy(handled.get(0), ProtocolViolationException.class, ""), handled.get(0).toString());
        assertTrue(String.valueOf(handled.get(0).getMessage()).contains(NullScheduleScheduler.class.getName())
                || Broken.causedBy(handled.get(0), Throwable.class, NullScheduleScheduler.class.getName()));
        scope.close();
        assertTimeoutPreemptively(HANG_GUARD, () -> Senders.syncWait(scope.join()));
    }


    @Test
    void toRxOfASchedulerWhoseScheduleReturnsNull_failsTheSubscriberInsteadOfHanging() {
        io.reactivex.rxjava3.core.Scheduler rx = RxSchedulers.toRx(new NullScheduleScheduler());
        Throwable e = assertTimeoutPreemptively(HANG_GUARD,
                () -> assertThrows(RuntimeException.class, () -> Single.just(1).subscribeOn(rx).blockingGet()));
        assertTrue(Broken.causedBy(e, ProtocolViolationException.class, ""), e.toString());
        assertTrue(Broken.causedBy(e, Throwable.class, NullScheduleScheduler.class.getName()), e.toString());
    }

    @Test
    void aWorkerOfARejectingSchedulerThrowsRejectedExecutionException() {
        io.reactivex.rxjava3.core.Scheduler.Worker w = RxSchedulers.toRx(Broken.rejectingScheduler()).createWorker();
        assertThrows(RejectedExecutionException.class, () -> w.schedule(() -> { }));
        assertTrue(w.isDisposed());
    }

    @Test
    void aSenderOfAConnectReturningNullIsAViolationAtTheRxBoundary() {
        Sender<Integer> broken = new Broken.NullConnectSender<>();
        Throwable e = assertTimeoutPreemptively(HANG_GUARD,
                () -> assertThrows(RuntimeException.class, () -> RxSenders.toSingle(broken).blockingGet()));
        assertTrue(Broken.causedBy(e, ProtocolViolationException.class, ""), e.toString());
    }
}
