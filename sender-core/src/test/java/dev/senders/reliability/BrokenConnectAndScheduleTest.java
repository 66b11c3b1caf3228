package dev.senders.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.Env;
import dev.senders.Hooks;
import dev.senders.ProtocolViolationException;
import dev.senders.Query;
import dev.senders.Schedulers;
import dev.senders.Sender;
import dev.senders.Senders;
import dev.senders.StopToken;
import dev.senders.scope.CountingScope;
import dev.senders.scope.ScopeState;
import dev.senders.scope.Scopes;
import dev.senders.scope.SimpleCountingScope;
import dev.senders.task.Task;
import dev.senders.testkit.BadInput;
import dev.senders.testkit.Broken.NullConnectSender;
import dev.senders.testkit.Broken.NullScheduleScheduler;
import dev.senders.testkit.ManualSender;
import dev.senders.testkit.TestReceiver;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A foreign sender whose {@code connect} returns {@code null}, and a scheduler whose
 * {@code schedule()} returns {@code null}: every place of the library that connects such a sender
 * (or schedules on such a scheduler) reports a {@link ProtocolViolationException} that names the
 * offending class, gives back what it took (the scope association, the siblings) and never hangs.
 */
class BrokenConnectAndScheduleTest {



    static final Duration HANG_GUARD = Duration.ofSeconds(10);

    final List<Throwable> dropped = new CopyOnWriteArrayList<>();

    @BeforeEach
    void captureDropped() {
        Hooks.setOnErrorDropped(dropped::add);
    }

    @AfterEach
    void resetHooks() {
        Hooks.resetOnErrorDropped();
    }

    static void assertNamesSender(Throwable e) {
        BadInput.assertNamesNullConnectSender(e);
    }

    static void assertNamesScheduler(Throwable e) {
        ProtocolViolationException pve = assertInstanceOf(ProtocolViolationException.class, e);
        assertTrue(pve.getMessage().contains(NullScheduleScheduler.class.getName()), pve.getMessage());
        assertTrue(pve.getMessage().contains("schedule() returned null"), pve.getMessage());
    }

    /** syncWait must end (no hang) with the violation. */
    static Throwable syncWaitFailure(Sender<?> s) {
        return assertTimeoutPreemptively(HANG_GUARD,
                () -> assertThrows(RuntimeException.class, () -> Senders.syncWait(s)));
    }

    static void assertJoinsEmpty(SimpleCountingScope scope) {
        scope.close();
        assertTimeoutPreemptively(HANG_GUARD, () -> Senders.syncWait(scope.join()));
        assertEquals(ScopeState.JOINED, scope.state());
    }

    // ------------------------------------------------------------------ syncWait

    @Test
    void syncWaitOfASenderWhoseConnectReturnsNull_throwsAViolationNamingIt() {
        assertNamesSender(syncWaitFailure(new NullConnectSender<Integer>()));
        assertTrue(dropped.isEmpty(), () -> "dropped: " + dropped);
    }

    @Test
    void syncWaitWithATimeoutOfASenderWhoseConnectReturnsNull_throwsAViolationNamingIt() {
        Throwable e = assertTimeoutPreemptively(HANG_GUARD, () -> assertThrows(RuntimeException.class,
                () -> Senders.syncWait(new NullConnectSender<Integer>(), Duration.ofSeconds(5))));
        assertNamesSender(e);
    }

    // ------------------------------------------------------------------ scopes

    @Test
    void spawnOfANamedSenderWhoseConnectReturnsNull_throwsAViolationNamingTheBrokenSenderAndReleasesTheAssociation() {
        SimpleCountingScope scope = new SimpleCountingScope("named-null-connect");
        Throwable e = assertThrows(RuntimeException.class,
                () -> Scopes.spawn(Scopes.named(new NullConnectSender<>(), "broken"), scope.getToken()));
        assertNamesSender(e);
        assertEquals(0, scope.count());
        assertJoinsEmpty(scope);
    }

    @Test
    void spawnFutureOfANamedSenderWhoseConnectReturnsNull_throwsAViolationNamingTheBrokenSender() {
        SimpleCountingScope scope = new SimpleCountingScope("named-null-connect");
        Throwable e = assertThrows(RuntimeException.class,
                () -> Scopes.spawnFuture(Scopes.named(new NullConnectSender<Integer>(), "broken"), scope.getToken()));
        assertNamesSender(e);
        assertEquals(0, scope.count());
        assertJoinsEmpty(scope);
    }

    @Test
    void nestOfANamedSenderWhoseConnectReturnsNull_throwsAViolationNamingTheBrokenSenderOnConnect() {
        SimpleCountingScope scope = new SimpleCountingScope("named-null-connect");
        Sender<Integer> nested = Scopes.nest(Scopes.named(new NullConnectSender<Integer>(), "broken"), scope.getToken());
        Throwable e = assertThrows(RuntimeException.class, () -> nested.connect(new TestReceiver<>()));
        assertNamesSender(e);
        assertEquals(0, scope.count());
        assertJoinsEmpty(scope);
    }

    @Test
    void syncWaitOfANamedSenderWhoseConnectReturnsNull_throwsAViolationNamingTheBrokenSender() {
        assertNamesSender(syncWaitFailure(Scopes.named(new NullConnectSender<Integer>(), "broken")));
    }

    @Test
    void spawnOfASenderWhoseConnectReturnsNull_throwsAViolationNamingItAndReleasesTheAssociation() {
        SimpleCountingScope scope = new SimpleCountingScope();
        Throwable e = assertThrows(RuntimeException.class,
                () -> Scopes.spawn(new NullConnectSender<>(), scope.getToken()));
        assertNamesSender(e);
        assertEquals(0, scope.count());
        assertJoinsEmpty(scope);
    }

    @Test
    void spawnWithEnvOfASenderWhoseConnectReturnsNull_throwsAViolationAndReleasesTheAssociation() {
        CountingScope scope = new CountingScope();
        Throwable e = assertThrows(RuntimeException.class,
                () -> Scopes.spawn(new NullConnectSender<>(), scope.getToken(), Env.empty()));
        assertNamesSender(e);
        assertEquals(0, scope.count());
        scope.close();
        assertTimeoutPreemptively(HANG_GUARD, () -> Senders.syncWait(scope.join()));
    }

    @Test
    void spawnFutureOfASenderWhoseConnectReturnsNull_throwsAViolationNamingItAndReleasesTheAssociation() {
        SimpleCountingScope scope = new SimpleCountingScope();
        Throwable e = assertThrows(RuntimeException.class,
                () -> Scopes.spawnFuture(new NullConnectSender<Integer>(), scope.getToken()));
        assertNamesSender(e);
        assertEquals(0, scope.count());
        assertJoinsEmpty(scope);
    }

    @Test
    void nestOfASenderWhoseConnectReturnsNull_throwsAViolationOnConnectAndReleasesTheAssociation() {
        SimpleCountingScope scope = new SimpleCountingScope();
        Sender<Integer> nested = Scopes.nest(new NullConnectSender<Integer>(), scope.getToken());
        Throwable e = assertThrows(RuntimeException.class, () -> nested.connect(new TestReceiver<>()));
        assertNamesSender(e);
        assertEquals(0, scope.count());
        assertJoinsEmpty(scope);
    }

    @Test
    void letAsyncScopeWhoseBodyConnectReturnsNull_completesWithTheViolation() {
        Throwable e = syncWaitFailure(Scopes.letAsyncScope(token -> new NullConnectSender<Integer>()));
        assertNamesSender(e);
    }

    // ------------------------------------------------------------------ algorithms

    static List<Arguments> algorithms() {
        Function<Sender<Integer>, Sender<?>> letValue = bad -> Senders.just(1).letValue(v -> bad);
        Function<Sender<Integer>, Sender<?>> letError = bad ->
                Senders.<Integer>justError(new IllegalStateException()).letError(x -> bad);
        Function<Sender<Integer>, Sender<?>> letStopped = bad -> Senders.<Integer>justStopped().letStopped(() -> bad);
        Function<Sender<Integer>, Sender<?>> startsOnInline = bad -> bad.startsOn(Schedulers.inline());
        Function<Sender<Integer>, Sender<?>> continuesOn = bad -> bad.continuesOn(Schedulers.inline());
        Function<Sender<Integer>, Sender<?>> then = bad -> bad.then(v -> v + 1);
        Function<Sender<Integer>, Sender<?>> stopWhen = bad -> bad.stopWhen(new dev.senders.InplaceStopSource().token());
        Function<Sender<Integer>, Sender<?>> task = bad -> Task.of(ctx -> ctx.await(bad));
        return List.of(
                Arguments.of("letValue", letValue),
                Arguments.of("letError", letError),
                Arguments.of("letStopped", letStopped),
                Arguments.of("startsOn(inline)", startsOnInline),
                Arguments.of("continuesOn", continuesOn),
                Arguments.of("then", then),
                Arguments.of("stopWhen", stopWhen),
                Arguments.of("Task await", task));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("algorithms")
    void anAlgorithmOverASenderWhoseConnectReturnsNull_endsWithAViolationNamingIt(String name,
            Function<Sender<Integer>, Sender<?>> algorithm) {
        assertNamesSender(syncWaitFailure(algorithm.apply(new NullConnectSender<>())));
    }

    @Test
    void startsOnAnExecutorOverASenderWhoseConnectReturnsNull_endsWithAViolationNamingIt() {
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            Sender<Integer> s = new NullConnectSender<Integer>().startsOn(Schedulers.fromExecutor(pool));
            assertNamesSender(syncWaitFailure(s));
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void whenAllWithASenderWhoseConnectReturnsNull_stopsTheSiblingsAndEndsWithTheViolation() {
        ManualSender<Integer> sibling = new ManualSender<>(true);
        Sender<List<Integer>> all = Senders.whenAll(sibling, new NullConnectSender<Integer>());
        assertNamesSender(syncWaitFailure(all));
        assertEquals(1, sibling.starts());
        assertEquals(1, sibling.stopsSeen());
    }

    @Test
    void whenAllWithASenderWhoseConnectReturnsNull_releasesTheAssociationOfANestedSibling() {
        SimpleCountingScope scope = new SimpleCountingScope();
        ManualSender<Integer> work = new ManualSender<>(true);
        Sender<List<Integer>> all = Senders.whenAll(Scopes.nest(work, scope.getToken()),
                new NullConnectSender<Integer>());
        assertNamesSender(syncWaitFailure(all));
        assertEquals(0, scope.count());
        assertJoinsEmpty(scope);
    }

    @Test
    void whenAnyWithASenderWhoseConnectReturnsNull_isNotWonByASiblingsValue() {
        Sender<Integer> any = Senders.whenAny(Senders.just(1), new NullConnectSender<Integer>());
        assertNamesSender(syncWaitFailure(any));
    }

    @Test
    void toCompletableFutureOfASenderWhoseConnectReturnsNull_failsWithTheViolation() {
        Throwable e = assertThrows(Exception.class,
                () -> Senders.toCompletableFuture(new NullConnectSender<Integer>()).join());
        assertNamesSender(e.getCause());
    }

    // ------------------------------------------------------------------ schedulers

    @Test
    void scheduleOnASchedulerWhoseScheduleReturnsNull_throwsAViolationNamingTheScheduler() {
        assertNamesScheduler(assertThrows(RuntimeException.class,
                () -> Senders.schedule(new NullScheduleScheduler())));
    }

    @Test
    void startsOnASchedulerWhoseScheduleReturnsNull_failsWithAViolationNamingTheScheduler() {
        assertNamesScheduler(syncWaitFailure(Senders.just(1).startsOn(new NullScheduleScheduler())));
    }

    @Test
    void continuesOnASchedulerWhoseScheduleReturnsNull_failsWithAViolationNamingTheScheduler() {
        assertNamesScheduler(syncWaitFailure(Senders.just(1).continuesOn(new NullScheduleScheduler())));
    }

    @Test
    void taskRunOnASchedulerWhoseScheduleReturnsNull_failsWithAViolationNamingTheScheduler() {
        Task<Integer> t = Task.of(ctx -> ctx.runOn(new NullScheduleScheduler(), () -> 1));
        assertNamesScheduler(syncWaitFailure(t));
    }

    @Test
    void aWaitingJoinWhoseSchedulerReturnsNull_completesWithAViolationNamingTheScheduler() throws Exception {
        SimpleCountingScope scope = new SimpleCountingScope();
        ManualSender<Integer> work = new ManualSender<>();
        Scopes.spawn(work, scope.getToken());
        TestReceiver<Void> join = new TestReceiver<>(
                Env.of(Query.SCHEDULER, new NullScheduleScheduler()).with(Query.STOP_TOKEN, StopToken.never()));
        scope.join().connect(join).start();
        join.assertNotCompleted();
        work.complete(1);
        join.await();
        assertEquals(TestReceiver.Kind.ERROR, join.kind());
        assertNamesScheduler(join.error());
        assertEquals(ScopeState.JOINED, scope.state());
    }
}
