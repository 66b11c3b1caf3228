package dev.senders.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.Hooks;
import dev.senders.InplaceStopSource;
import dev.senders.OperationState;
import dev.senders.ProtocolViolationException;
import dev.senders.Receiver;
import dev.senders.Sender;
import dev.senders.Senders;
import dev.senders.StopCallback;
import dev.senders.StopToken;
import dev.senders.testkit.ManualSender;
import dev.senders.testkit.TestReceiver;
import dev.senders.scope.AsyncScopeToken;
import dev.senders.scope.CountingScope;
import dev.senders.scope.NestSender;
import dev.senders.scope.ScopeState;
import dev.senders.scope.Scopes;
import dev.senders.scope.SimpleCountingScope;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * Bad input against the scopes (P3149) and the core: each case gets a clear exception or error
 * signal naming the problem, and a sibling operation in the same scope still completes and the
 * join still completes (nothing else is lost). {@code Hooks.onErrorDropped} is captured around
 * each test. The table of cases is in docs/reliability-suite.md.
 */
class ScopeBadInputTest {

    final List<Throwable> dropped = new CopyOnWriteArrayList<>();

    @BeforeEach
    void captureDropped() {
        Hooks.setOnErrorDropped(dropped::add);
    }

    @AfterEach
    void resetHooks() {
        Hooks.resetOnErrorDropped();
    }

    /** Another operation associated with the same scope: it must not be lost by the bad input. */
    static final class Sibling {
        final ManualSender<Integer> work = new ManualSender<>();
        final TestReceiver<Integer> rec = new TestReceiver<>();

        Sibling(AsyncScopeToken token) {
            Scopes.nest(work, token).connect(rec).start();
            assertEquals(1, work.starts());
        }

        void finishAndCheck() throws InterruptedException {
            work.complete(7);
            rec.await(); // hang guard
            assertEquals(TestReceiver.Kind.VALUE, rec.kind());
            assertEquals(7, rec.value());
            assertEquals(1, rec.completions());
        }
    }

    /** The sibling completes, then close + join completes with a value, and the scope ends at count 0. */
    static void assertNothingElseLost(Sibling sibling, SimpleCountingScope scope) throws InterruptedException {
        sibling.finishAndCheck();
        scope.close();
        assertJoins(scope.join());
        assertEquals(0, scope.count());
        assertEquals(ScopeState.JOINED, scope.state());
    }

    static void assertNothingElseLost(Sibling sibling, CountingScope scope) throws InterruptedException {
        sibling.finishAndCheck();
        scope.close();
        assertJoins(scope.join());
        assertEquals(0, scope.count());
        assertEquals(ScopeState.JOINED, scope.state());
    }

    static void assertJoins(Sender<Void> join) throws InterruptedException {
        TestReceiver<Void> j = new TestReceiver<>();
        join.connect(j).start();
        j.await(); // fails if the join did not complete (hang guard)
        assertEquals(TestReceiver.Kind.VALUE, j.kind());
        assertEquals(1, j.completions());
    }

    static void assertNpeNaming(String arg, Executable call) {
        NullPointerException e = assertThrows(NullPointerException.class, call);
        assertEquals(arg, e.getMessage());
    }

    // ------------------------------------------------------------------ null arguments

    @Test
    @DisplayName("nest(null, token): NPE naming 'sender', nothing associated")
    void nest_nullSender() throws Exception {
        SimpleCountingScope scope = new SimpleCountingScope();
        Sibling s = new Sibling(scope.getToken());
        assertNpeNaming("sender", () -> Scopes.nest(null, scope.getToken()));
        assertEquals(1, scope.count());
        assertNothingElseLost(s, scope);
    }

    @Test
    @DisplayName("nest(sender, null): NPE naming 'token'")
    void nest_nullToken() {
        assertNpeNaming("token", () -> Scopes.nest(Senders.just(), null));
    }

    @Test
    @DisplayName("spawn(null, token): NPE naming 'sender', nothing associated")
    void spawn_nullSender() throws Exception {
        SimpleCountingScope scope = new SimpleCountingScope();
        Sibling s = new Sibling(scope.getToken());
        assertNpeNaming("sender", () -> Scopes.spawn(null, scope.getToken()));
        assertEquals(1, scope.count());
        assertNothingElseLost(s, scope);
    }

    @Test
    @DisplayName("spawn(sender, null): NPE naming 'token'")
    void spawn_nullToken() {
        assertNpeNaming("token", () -> Scopes.spawn(Senders.just(), null));
    }

    @Test
    @DisplayName("spawn(sender, token, null): NPE naming 'env', nothing associated, sender never connected")
    void spawn_nullEnv() throws Exception {
        CountingScope scope = new CountingScope();
        Sibling s = new Sibling(scope.getToken());
        ManualSender<Integer> work = new ManualSender<>();
        assertNpeNaming("env", () -> Scopes.spawn(work, scope.getToken(), null));
        assertEquals(0, work.connects());
        assertEquals(1, scope.count());
        assertNothingElseLost(s, scope);
    }

    @Test
    @DisplayName("spawnFuture(null, token): NPE naming 'sender'")
    void spawnFuture_nullSender() throws Exception {
        SimpleCountingScope scope = new SimpleCountingScope();
        Sibling s = new Sibling(scope.getToken());
        assertNpeNaming("sender", () -> Scopes.spawnFuture(null, scope.getToken()));
        assertEquals(1, scope.count());
        assertNothingElseLost(s, scope);
    }

    @Test
    @DisplayName("spawnFuture(sender, token, null): NPE naming 'env', sender never connected")
    void spawnFuture_nullEnv() throws Exception {
        SimpleCountingScope scope = new SimpleCountingScope();
        Sibling s = new Sibling(scope.getToken());
        ManualSender<Integer> work = new ManualSender<>();
        assertNpeNaming("env", () -> Scopes.spawnFuture(work, scope.getToken(), null));
        assertEquals(0, work.connects());
        assertEquals(1, scope.count());
        assertNothingElseLost(s, scope);
    }

    @Test
    @DisplayName("letAsyncScope(null): NPE naming 'fn'")
    void letAsyncScope_nullFn() {
        assertNpeNaming("fn", () -> Scopes.letAsyncScope(null));
    }

    @Test
    @DisplayName("letAsyncScope(null, fn): NPE naming 'errorType'")
    void letAsyncScope_nullErrorType() {
        assertNpeNaming("errorType", () -> Scopes.letAsyncScope(null, t -> Senders.just()));
    }

    @Test
    @DisplayName("join().connect(null): NPE naming 'receiver', the scope is not joining")
    void join_connectNullReceiver() throws Exception {
        SimpleCountingScope scope = new SimpleCountingScope();
        Sibling s = new Sibling(scope.getToken());
        assertNpeNaming("receiver", () -> scope.join().connect(null));
        assertEquals(ScopeState.OPEN, scope.state());
        assertNothingElseLost(s, scope);
    }

    @Test
    @DisplayName("nest(..).connect(null): NPE naming 'receiver', the association stays with the nest sender")
    void nest_connectNullReceiver() throws Exception {
        SimpleCountingScope scope = new SimpleCountingScope();
        Sibling s = new Sibling(scope.getToken());
        NestSender<Integer> n = Scopes.nest(Senders.just(1), scope.getToken());
        assertNpeNaming("receiver", () -> n.connect(null));
        assertEquals(2, scope.count());
        assertTrue(n.discard(), "the failed connect must not have taken the association");
        assertNothingElseLost(s, scope);
    }

    @Test
    @DisplayName("spawnFuture(..).connect(null): NPE naming 'receiver'; the future can still be consumed")
    void spawnFuture_connectNullReceiver() throws Exception {
        SimpleCountingScope scope = new SimpleCountingScope();
        Sibling s = new Sibling(scope.getToken());
        Sender<Integer> f = Scopes.spawnFuture(Senders.just(5), scope.getToken());
        assertNpeNaming("receiver", () -> f.connect(null));
        TestReceiver<Integer> r = new TestReceiver<>();
        f.connect(r).start();
        assertEquals(5, r.value());
        assertNothingElseLost(s, scope);
    }

    @Test
    @DisplayName("Hooks.setOnErrorDropped(null): NPE naming 'handler', the installed handler is kept")
    void hooks_nullHandler() {
        assertNpeNaming("handler", () -> Hooks.setOnErrorDropped(null));
        IllegalStateException e = new IllegalStateException("x");
        Hooks.onErrorDropped(e);
        assertEquals(List.of(e), dropped);
    }

    // ------------------------------------------------------------------ throwing receivers

    @Test
    @DisplayName("C1: a nest receiver throwing from setValue gets setError with that exception; the association is released once")
    void nestReceiverThrowsFromSetValue_getsSetError() throws Exception {
        SimpleCountingScope scope = new SimpleCountingScope();
        Sibling s = new Sibling(scope.getToken());
        IllegalStateException boom = new IllegalStateException("receiver refused the value");
        TestReceiver<Integer> r = new TestReceiver<>() {
            @Override
            public void setValue(Integer v) {
                super.setValue(v);
                throw boom;
            }
        };
        Scopes.nest(Senders.just(1), scope.getToken()).connect(r).start();
        assertEquals(TestReceiver.Kind.ERROR, r.kind());
        assertSame(boom, r.error());
        assertEquals(2, r.completions()); // the refused value, then the error
        assertEquals(1, scope.count(), "only the sibling may still be associated");
        assertTrue(dropped.isEmpty(), () -> "dropped: " + dropped);
        assertNothingElseLost(s, scope);
    }

    @Test
    @DisplayName("C1: a nest receiver throwing from setError -> Hooks.onErrorDropped (original suppressed)")
    void nestReceiverThrowsFromSetError_toHooks() throws Exception {
        SimpleCountingScope scope = new SimpleCountingScope();
        Sibling s = new Sibling(scope.getToken());
        IllegalStateException original = new IllegalStateException("work failed");
        IllegalArgumentException boom = new IllegalArgumentException("receiver threw from setError");
        TestReceiver<Integer> r = new TestReceiver<>() {
            @Override
            public void setError(Throwable e) {
                super.setError(e);
                throw boom;
            }
        };
        Scopes.nest(Senders.<Integer>justError(original), scope.getToken()).connect(r).start();
        assertEquals(1, r.completions());
        assertEquals(List.of(boom), dropped);
        assertSame(original, boom.getSuppressed()[0]);
        assertEquals(1, scope.count());
        assertNothingElseLost(s, scope);
    }

    @Test
    @DisplayName("C1: a receiver throwing from setStopped (nest on a closed scope) -> Hooks.onErrorDropped")
    void nestReceiverThrowsFromSetStopped_toHooks() throws Exception {
        SimpleCountingScope scope = new SimpleCountingScope();
        Sibling s = new Sibling(scope.getToken());
        scope.close();
        IllegalStateException boom = new IllegalStateException("receiver threw from setStopped");
        TestReceiver<Integer> r = new TestReceiver<>() {
            @Override
            public void setStopped() {
                super.setStopped();
                throw boom;
            }
        };
        ManualSender<Integer> work = new ManualSender<>();
        Scopes.nest(work, scope.getToken()).connect(r).start();
        assertEquals(TestReceiver.Kind.STOPPED, r.kind());
        assertEquals(0, work.connects());
        assertEquals(List.of(boom), dropped);
        assertNothingElseLost(s, scope);
    }

    @Test
    @DisplayName("C1: a spawnFuture consumer throwing from setValue gets setError with that exception")
    void futureConsumerThrowsFromSetValue_getsSetError() throws Exception {
        SimpleCountingScope scope = new SimpleCountingScope();
        Sibling s = new Sibling(scope.getToken());
        IllegalStateException boom = new IllegalStateException("consumer refused the value");
        TestReceiver<Integer> r = new TestReceiver<>() {
            @Override
            public void setValue(Integer v) {
                super.setValue(v);
                throw boom;
            }
        };
        Scopes.spawnFuture(Senders.just(3), scope.getToken()).connect(r).start();
        assertEquals(TestReceiver.Kind.ERROR, r.kind());
        assertSame(boom, r.error());
        assertEquals(1, scope.count());
        assertNothingElseLost(s, scope);
    }

    @Test
    @DisplayName("C1: a join receiver throwing from setValue gets setError; a second join still completes")
    void joinReceiverThrowsFromSetValue_getsSetError() throws Exception {
        SimpleCountingScope scope = new SimpleCountingScope();
        Sibling s = new Sibling(scope.getToken());
        IllegalStateException boom = new IllegalStateException("join receiver threw");
        TestReceiver<Void> bad = new TestReceiver<>() {
            @Override
            public void setValue(Void v) {
                super.setValue(v);
                throw boom;
            }
        };
        scope.join().connect(bad).start();
        assertFalse(bad.isDone());
        assertNothingElseLost(s, scope); // completes the sibling: the bad join completes on this thread
        assertEquals(TestReceiver.Kind.ERROR, bad.kind());
        assertSame(boom, bad.error());
    }

    @Test
    @DisplayName("P3149 spawn: a scope error handler that throws -> Hooks.onErrorDropped with the work's error suppressed")
    void spawnErrorHandlerThrows_toHooks() throws Exception {
        IllegalArgumentException handlerFailure = new IllegalArgumentException("handler threw");
        SimpleCountingScope scope = new SimpleCountingScope(e -> {
            throw handlerFailure;
        });
        Sibling s = new Sibling(scope.getToken());
        IllegalStateException workError = new IllegalStateException("work failed");
        assertTrue(Scopes.spawn(Senders.justError(workError), scope.getToken()));
        assertEquals(List.of(handlerFailure), dropped);
        assertSame(workError, handlerFailure.getSuppressed()[0]);
        assertEquals(1, scope.errorCount());
        assertEquals(1, scope.count());
        assertNothingElseLost(s, scope);
    }

    // ------------------------------------------------------------------ broken senders

    /** A sender that completes its receiver twice with a value. */
    static final class CompletesTwice implements Sender<Integer> {
        @Override
        public OperationState connect(Receiver<? super Integer> r) {
            return () -> {
                r.setValue(1);
                r.setValue(2);
            };
        }
    }

    @Test
    @DisplayName("[exec.recv] a sender completing twice under spawn: ProtocolViolationException to Hooks, count untouched")
    void spawnedSenderCompletesTwice_simpleScope_reported() throws Exception {
        SimpleCountingScope scope = new SimpleCountingScope();
        Sibling s = new Sibling(scope.getToken());
        TestReceiver<Void> join = new TestReceiver<>();
        assertTrue(Scopes.spawn(new CompletesTwice(), scope.getToken()));
        scope.close();
        scope.join().connect(join).start();
        assertFalse(join.isDone(), "join completed while the sibling is still running");
        assertEquals(1, scope.count());
        assertEquals(1, dropped.size());
        assertInstanceOf(ProtocolViolationException.class, dropped.get(0));
        assertNothingElseLost(s, scope);
    }

    @Test
    @DisplayName("[exec.recv] a sender completing twice under spawn (CountingScope): ProtocolViolationException to Hooks, count untouched")
    void spawnedSenderCompletesTwice_countingScope_reported() throws Exception {
        CountingScope scope = new CountingScope();
        Sibling s = new Sibling(scope.getToken());
        TestReceiver<Void> join = new TestReceiver<>();
        assertTrue(Scopes.spawn(new CompletesTwice(), scope.getToken()));
        scope.close();
        scope.join().connect(join).start();
        assertFalse(join.isDone(), "join completed while the sibling is still running");
        assertEquals(1, scope.count());
        assertEquals(1, dropped.size(), () -> "dropped: " + dropped);
        assertInstanceOf(ProtocolViolationException.class, dropped.get(0));
        assertNothingElseLost(s, scope);
    }

    @Test
    @DisplayName("[exec.recv] a sender completing twice under nest: one completion downstream, ProtocolViolationException to Hooks")
    void nestedSenderCompletesTwice_reported() throws Exception {
        SimpleCountingScope scope = new SimpleCountingScope();
        Sibling s = new Sibling(scope.getToken());
        TestReceiver<Integer> r = new TestReceiver<>();
        Scopes.nest(new CompletesTwice(), scope.getToken()).connect(r).start();
        assertEquals(1, r.completions());
        assertEquals(1, r.value());
        assertEquals(1, scope.count());
        assertEquals(1, dropped.size(), () -> "dropped: " + dropped);
        assertInstanceOf(ProtocolViolationException.class, dropped.get(0));
        assertNothingElseLost(s, scope);
    }

    @Test
    @DisplayName("[exec.recv] a sender completing twice under spawnFuture: one completion to the consumer, ProtocolViolationException to Hooks")
    void futureSenderCompletesTwice_reported() throws Exception {
        SimpleCountingScope scope = new SimpleCountingScope();
        Sibling s = new Sibling(scope.getToken());
        Sender<Integer> f = Scopes.spawnFuture(new CompletesTwice(), scope.getToken());
        assertEquals(1, scope.count());
        TestReceiver<Integer> r = new TestReceiver<>();
        f.connect(r).start();
        assertEquals(1, r.completions());
        assertEquals(1, dropped.size(), () -> "dropped: " + dropped);
        assertInstanceOf(ProtocolViolationException.class, dropped.get(0));
        assertNothingElseLost(s, scope);
    }

    @Test
    @DisplayName("[exec.recv] a sender completing before start under spawn (CountingScope): reported as ProtocolViolationException, count released once")
    void spawnedSenderCompletesBeforeStart_reported() throws Exception {
        CountingScope scope = new CountingScope();
        Sibling s = new Sibling(scope.getToken());
        Sender<Integer> early = r -> {
            r.setValue(1); // inside connect: before start
            return () -> { };
        };
        assertTrue(Scopes.spawn(early, scope.getToken()));
        assertEquals(1, scope.count());
        assertEquals(1, dropped.size(), () -> "dropped: " + dropped);
        assertInstanceOf(ProtocolViolationException.class, dropped.get(0));
        assertEquals(1, scope.errorCount(), "the violation is the spawned work's error");
        assertNothingElseLost(s, scope);
    }

    @Test
    @DisplayName("[exec.recv] a sender completing before start under spawn (SimpleCountingScope): reported as ProtocolViolationException")
    void spawnedSenderCompletesBeforeStart_simpleScope_reported() throws Exception {
        SimpleCountingScope scope = new SimpleCountingScope();
        Sibling s = new Sibling(scope.getToken());
        Sender<Integer> early = r -> {
            r.setValue(1); // inside connect: before start
            return () -> { };
        };
        assertTrue(Scopes.spawn(early, scope.getToken()));
        assertEquals(1, dropped.size(), () -> "dropped: " + dropped);
        assertInstanceOf(ProtocolViolationException.class, dropped.get(0));
        assertEquals(1, scope.count());
        assertNothingElseLost(s, scope);
    }

    @Test
    @DisplayName("a sender that never completes but honours stop: requestStop() lets the join complete")
    void neverCompletingSender_honouringStop_joinCompletesAfterRequestStop() throws Exception {
        CountingScope scope = new CountingScope();
        Sibling s = new Sibling(scope.getToken());
        AtomicInteger stoppedWork = new AtomicInteger();
        Sender<Integer> untilStopped = r -> () -> {
            StopToken t = r.env().stopToken();
            StopCallback[] cb = new StopCallback[1];
            cb[0] = t.onStop(() -> {
                stoppedWork.incrementAndGet();
                r.setStopped();
            });
        };
        assertTrue(Scopes.spawn(untilStopped, scope.getToken()));
        assertEquals(2, scope.count());
        scope.requestStop();
        assertEquals(1, stoppedWork.get());
        assertEquals(1, scope.count());
        assertNothingElseLost(s, scope);
    }

    @Test
    @DisplayName("a sender that ignores stop keeps its association: count stays 1 and the join does not complete (bounded check)")
    void neverCompletingSender_ignoringStop_keepsTheScopeOpen() throws Exception {
        CountingScope scope = new CountingScope();
        ManualSender<Integer> stubborn = new ManualSender<>();
        assertTrue(Scopes.spawn(stubborn, scope.getToken()));
        scope.close();
        scope.requestStop();
        TestReceiver<Void> join = new TestReceiver<>();
        scope.join().connect(join).start();
        assertFalse(join.await(200, TimeUnit.MILLISECONDS), "join completed while work is associated");
        assertEquals(1, scope.count());
        assertEquals(ScopeState.CLOSED_AND_JOINING, scope.state());
        stubborn.complete(1); // clean up: the work ends, the join completes
        join.await(); // hang guard
        assertEquals(ScopeState.JOINED, scope.state());
    }

    @Test
    @DisplayName("P3149 spawn after close: returns false, the sender is never connected")
    void spawnAfterClose_returnsFalse_neverRuns() throws Exception {
        SimpleCountingScope scope = new SimpleCountingScope();
        Sibling s = new Sibling(scope.getToken());
        scope.close();
        ManualSender<Integer> work = new ManualSender<>();
        assertFalse(Scopes.spawn(work, scope.getToken()));
        assertEquals(0, work.connects());
        assertEquals(1, scope.count());
        assertNothingElseLost(s, scope);
    }

    @Test
    @DisplayName("P3149 nest after close: unassociated, completes stopped, the sender is never connected")
    void nestAfterClose_stopped_neverRuns() throws Exception {
        CountingScope scope = new CountingScope();
        Sibling s = new Sibling(scope.getToken());
        scope.close();
        ManualSender<Integer> work = new ManualSender<>();
        NestSender<Integer> n = Scopes.nest(work, scope.getToken());
        assertFalse(n.isAssociated());
        TestReceiver<Integer> r = new TestReceiver<>();
        n.connect(r).start();
        assertEquals(TestReceiver.Kind.STOPPED, r.kind());
        assertEquals(0, work.connects());
        assertNothingElseLost(s, scope);
    }

    @Test
    @DisplayName("P3149 spawnFuture after close: the future completes stopped, the sender is never connected")
    void spawnFutureAfterClose_stopped_neverRuns() throws Exception {
        SimpleCountingScope scope = new SimpleCountingScope();
        Sibling s = new Sibling(scope.getToken());
        scope.close();
        ManualSender<Integer> work = new ManualSender<>();
        TestReceiver<Integer> r = new TestReceiver<>();
        Scopes.spawnFuture(work, scope.getToken()).connect(r).start();
        assertEquals(TestReceiver.Kind.STOPPED, r.kind());
        assertEquals(0, work.connects());
        assertNothingElseLost(s, scope);
    }

    @Test
    @DisplayName("P3149 join twice (both waiting): both complete exactly once when the count reaches zero")
    void joinTwice_bothComplete() throws Exception {
        SimpleCountingScope scope = new SimpleCountingScope();
        Sibling s = new Sibling(scope.getToken());
        TestReceiver<Void> j1 = new TestReceiver<>();
        TestReceiver<Void> j2 = new TestReceiver<>();
        scope.join().connect(j1).start();
        scope.join().connect(j2).start();
        assertFalse(j1.isDone());
        assertFalse(j2.isDone());
        assertNothingElseLost(s, scope); // a third join, after close, completes too
        assertEquals(1, j1.completions());
        assertEquals(1, j2.completions());
        assertEquals(TestReceiver.Kind.VALUE, j1.kind());
        assertEquals(TestReceiver.Kind.VALUE, j2.kind());
    }

    @Test
    @DisplayName("P3149 join from inside work nested in the same scope: never completes while that work waits for it (deadlock, documented)")
    void joinFromInsideNestedWork_waitsForItself() throws Exception {
        CountingScope scope = new CountingScope();
        Sibling s = new Sibling(scope.getToken());
        TestReceiver<Void> innerJoin = new TestReceiver<>();
        ManualSender<Integer> escape = new ManualSender<>();
        // The nested work starts a join of its own scope and completes only when that join does,
        // or when the test opens the escape hatch.
        Sender<Integer> waitsForOwnJoin = r -> () -> {
            scope.join().connect(new Receiver<Void>() {
                @Override
                public void setValue(Void v) {
                    innerJoin.setValue(v);
                }

                @Override
                public void setError(Throwable e) {
                    innerJoin.setError(e);
                }

                @Override
                public void setStopped() {
                    innerJoin.setStopped();
                }
            }).start();
            escape.connect(r).start();
        };
        TestReceiver<Integer> outer = new TestReceiver<>();
        Scopes.nest(waitsForOwnJoin, scope.getToken()).connect(outer).start();
        s.finishAndCheck(); // the other work is not lost
        scope.requestStop(); // the inner join's receiver has no stop token to be stopped through, and this work ignores stop
        assertFalse(innerJoin.await(200, TimeUnit.MILLISECONDS), "a join completed while its own caller is associated");
        assertEquals(1, scope.count());
        assertEquals(ScopeState.OPEN_AND_JOINING, scope.state());
        escape.complete(1); // break the cycle: the work completes, which completes the join
        innerJoin.await(); // hang guard
        assertEquals(TestReceiver.Kind.VALUE, outer.kind());
        assertEquals(ScopeState.JOINED, scope.state());
    }

    @Test
    @DisplayName("P3149 requestStop on a closed scope still reaches running work")
    void requestStopOnClosedScope_reachesRunningWork() throws Exception {
        CountingScope scope = new CountingScope();
        Sibling s = new Sibling(scope.getToken());
        TestReceiver<Integer> r = new TestReceiver<>();
        Sender<Integer> untilStopped = rr -> () -> rr.env().stopToken().onStop(rr::setStopped);
        Scopes.nest(untilStopped, scope.getToken()).connect(r).start();
        scope.close();
        scope.requestStop();
        assertEquals(TestReceiver.Kind.STOPPED, r.kind());
        assertTrue(scope.stopToken().stopRequested());
        assertEquals(1, s.work.starts()); // the sibling ignores stop: still running
        assertNothingElseLost(s, scope);
    }

    @Test
    @DisplayName("P3149 requestStop on a joined scope: no exception, the token reports stop")
    void requestStopOnJoinedScope_isHarmless() throws Exception {
        CountingScope scope = new CountingScope();
        scope.close();
        assertJoins(scope.join());
        scope.requestStop();
        assertTrue(scope.stopToken().stopRequested());
        assertEquals(ScopeState.JOINED, scope.state());
        assertTrue(dropped.isEmpty());
    }

    @Test
    @DisplayName("[stopsource.inplace] a stop callback that throws -> Hooks.onErrorDropped, the other callbacks still run")
    void stopCallbackThrows_toHooks_othersRun() {
        InplaceStopSource src = new InplaceStopSource();
        AtomicInteger ran = new AtomicInteger();
        IllegalStateException boom = new IllegalStateException("callback threw");
        StopCallback a = src.token().onStop(ran::incrementAndGet);
        StopCallback b = src.token().onStop(() -> {
            throw boom;
        });
        StopCallback c = src.token().onStop(ran::incrementAndGet);
        assertTrue(src.requestStop());
        assertEquals(2, ran.get());
        assertEquals(List.of(boom), dropped);
        a.close();
        b.close();
        c.close();
    }

    @Test
    @DisplayName("P3149 requestStop: spawned work whose stop callback throws -> Hooks; the other work still stops and the join completes")
    void scopeRequestStop_throwingCallbackInWork_othersStillStop() throws Exception {
        CountingScope scope = new CountingScope();
        Sibling s = new Sibling(scope.getToken());
        IllegalStateException boom = new IllegalStateException("work's stop callback threw");
        ManualSender<Integer> bad = new ManualSender<>();
        Sender<Integer> badWork = r -> () -> {
            r.env().stopToken().onStop(() -> {
                bad.connect(r).start(); // remember the receiver, complete it below
                throw boom;
            });
        };
        TestReceiver<Integer> good = new TestReceiver<>();
        Scopes.spawn(badWork, scope.getToken());
        Scopes.nest((Sender<Integer>) rr -> () -> rr.env().stopToken().onStop(rr::setStopped), scope.getToken())
                .connect(good).start();
        scope.requestStop();
        assertEquals(TestReceiver.Kind.STOPPED, good.kind());
        assertEquals(List.of(boom), dropped);
        bad.stop(); // the misbehaving work still ends
        assertNothingElseLost(s, scope);
    }

    @Test
    @DisplayName("AsyncScopeToken.dissociate() without association: IllegalStateException naming the problem")
    void dissociateWithoutAssociation_rejected() {
        SimpleCountingScope scope = new SimpleCountingScope();
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> scope.getToken().dissociate());
        assertTrue(e.getMessage().contains("without a matching successful tryAssociate"), e.getMessage());
        scope.close();
    }

    @Test
    @DisplayName("P3149 spawnFuture: a second connect throws IllegalStateException naming single-shot")
    void spawnFutureConnectedTwice_rejected() throws Exception {
        SimpleCountingScope scope = new SimpleCountingScope();
        Sibling s = new Sibling(scope.getToken());
        Sender<Integer> f = Scopes.spawnFuture(Senders.just(1), scope.getToken());
        TestReceiver<Integer> r = new TestReceiver<>();
        OperationState op = f.connect(r);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> f.connect(new TestReceiver<>()));
        assertTrue(e.getMessage().contains("single-shot"), e.getMessage());
        op.start();
        assertEquals(1, r.value());
        assertNothingElseLost(s, scope);
    }

    @Test
    @DisplayName("P3149 spawn: a sender whose connect throws -> the exception propagates, the association is released")
    void spawnConnectThrows_propagates_released() throws Exception {
        SimpleCountingScope scope = new SimpleCountingScope();
        Sibling s = new Sibling(scope.getToken());
        IllegalStateException boom = new IllegalStateException("connect threw");
        Sender<Integer> broken = r -> {
            throw boom;
        };
        assertSame(boom, assertThrows(IllegalStateException.class, () -> Scopes.spawn(broken, scope.getToken())));
        assertEquals(1, scope.count());
        assertNothingElseLost(s, scope);
    }

    // ------------------------------------------------------------------ throwing functions in algorithms

    static void assertFunctionErrorIsSetError(Function<IllegalStateException, Sender<?>> build) throws Exception {
        CountingScope scope = new CountingScope();
        Sibling s = new Sibling(scope.getToken());
        IllegalStateException boom = new IllegalStateException("user function threw");
        TestReceiver<Object> r = new TestReceiver<>();
        @SuppressWarnings("unchecked")
        Sender<Object> bad = (Sender<Object>) build.apply(boom);
        Scopes.nest(bad, scope.getToken()).connect(r).start();
        r.await(); // hang guard
        assertEquals(TestReceiver.Kind.ERROR, r.kind());
        assertSame(boom, r.error());
        assertEquals(1, r.completions());
        assertNothingElseLost(s, scope);
    }

    static <T> T thrower(IllegalStateException e) {
        throw e;
    }

    @Test
    @DisplayName("[exec.then] a throwing function -> setError")
    void then_functionThrows_setError() throws Exception {
        assertFunctionErrorIsSetError(boom -> Senders.just(1).then(v -> thrower(boom)));
    }

    @Test
    @DisplayName("[exec.upon_error] a throwing function -> setError")
    void uponError_functionThrows_setError() throws Exception {
        assertFunctionErrorIsSetError(boom -> Senders.<Integer>justError(new RuntimeException("first"))
                .uponError(e -> thrower(boom)));
    }

    @Test
    @DisplayName("[exec.upon_stopped] a throwing function -> setError")
    void uponStopped_functionThrows_setError() throws Exception {
        assertFunctionErrorIsSetError(boom -> Senders.<Integer>justStopped().uponStopped(() -> thrower(boom)));
    }

    @Test
    @DisplayName("[exec.let] letValue: a throwing function -> setError")
    void letValue_functionThrows_setError() throws Exception {
        assertFunctionErrorIsSetError(boom -> Senders.just(1).letValue(v -> thrower(boom)));
    }

    @Test
    @DisplayName("[exec.let] letError: a throwing function -> setError")
    void letError_functionThrows_setError() throws Exception {
        assertFunctionErrorIsSetError(boom -> Senders.<Integer>justError(new RuntimeException("first"))
                .letError(e -> thrower(boom)));
    }

    @Test
    @DisplayName("[exec.let] letStopped: a throwing function -> setError")
    void letStopped_functionThrows_setError() throws Exception {
        assertFunctionErrorIsSetError(boom -> Senders.<Integer>justStopped().letStopped(() -> thrower(boom)));
    }

    @Test
    @DisplayName("[exec.stopped_as_error] a throwing supplier -> setError with its exception")
    void stoppedAsError_supplierThrows_setError() throws Exception {
        assertFunctionErrorIsSetError(boom -> Senders.<Integer>justStopped().stoppedAsError(() -> thrower(boom)));
    }

    @Test
    @DisplayName("[exec.when_all] a throwing combiner -> setError")
    void whenAll_combinerThrows_setError() throws Exception {
        assertFunctionErrorIsSetError(boom -> Senders.whenAll(Senders.just(1), Senders.just(2),
                (a, b) -> thrower(boom)));
    }

    @Test
    @DisplayName("fromCompletionStage(supplier): a throwing supplier -> setError")
    void fromCompletionStage_supplierThrows_setError() throws Exception {
        assertFunctionErrorIsSetError(boom -> Senders.fromCompletionStage(
                (java.util.function.Supplier<java.util.concurrent.CompletionStage<Integer>>) () -> thrower(boom)));
    }

    @Test
    @DisplayName("P3296 letAsyncScope: a throwing fn -> setError")
    void letAsyncScope_fnThrows_setError() throws Exception {
        assertFunctionErrorIsSetError(boom -> Scopes.<Integer>letAsyncScope(t -> thrower(boom)));
    }

    @Test
    @DisplayName("[exec.let] letValue returning a null sender -> setError(NullPointerException)")
    void letValue_returnsNull_setErrorNpe() throws Exception {
        CountingScope scope = new CountingScope();
        Sibling s = new Sibling(scope.getToken());
        TestReceiver<Integer> r = new TestReceiver<>();
        Scopes.nest(Senders.just(1).<Integer>letValue(v -> null), scope.getToken()).connect(r).start();
        assertEquals(TestReceiver.Kind.ERROR, r.kind());
        assertInstanceOf(NullPointerException.class, r.error());
        assertNothingElseLost(s, scope);
    }

    @Test
    @DisplayName("a sender whose start throws under spawn: that exception is the work's error, routed to the handler, and the association is released (join does not hang)")
    void spawnStartThrows_isTheWorksError_associationReleased() throws Exception {
        List<Throwable> handled = new CopyOnWriteArrayList<>();
        SimpleCountingScope scope = new SimpleCountingScope(handled::add);
        Sibling s = new Sibling(scope.getToken());
        IllegalStateException boom = new IllegalStateException("start threw");
        Sender<Integer> broken = r -> () -> {
            throw boom;
        };
        assertTrue(Scopes.spawn(broken, scope.getToken()));
        assertEquals(List.of(boom), handled);
        assertEquals(1, scope.count(), "only the sibling is still associated");
        assertNothingElseLost(s, scope);
    }

    @Test
    @DisplayName("a sender whose start throws under spawnFuture: the consumer gets that exception and the association is released")
    void spawnFutureStartThrows_consumerGetsIt_associationReleased() throws Exception {
        SimpleCountingScope scope = new SimpleCountingScope();
        Sibling s = new Sibling(scope.getToken());
        IllegalStateException boom = new IllegalStateException("start threw");
        Sender<Integer> broken = r -> () -> {
            throw boom;
        };
        TestReceiver<Integer> consumer = TestReceiver.start(Scopes.spawnFuture(broken, scope.getToken()));
        assertSame(boom, consumer.error());
        assertEquals(1, scope.count(), "only the sibling is still associated");
        assertNothingElseLost(s, scope);
    }

    @Test
    @DisplayName("a sender that completes and then throws from start under spawn: the completion counts once, the exception is reported, not lost")
    void spawnCompletesThenStartThrows_reportedOnce() throws Exception {
        List<Throwable> dropped = new CopyOnWriteArrayList<>();
        Hooks.setOnErrorDropped(dropped::add);
        try {
            SimpleCountingScope scope = new SimpleCountingScope();
            Sibling s = new Sibling(scope.getToken());
            IllegalStateException boom = new IllegalStateException("start threw after completing");
            Sender<Integer> broken = r -> () -> {
                r.setValue(1);
                throw boom;
            };
            assertTrue(Scopes.spawn(broken, scope.getToken()));
            assertEquals(List.of(boom), dropped);
            assertEquals(1, scope.count(), "released once: only the sibling is still associated");
            assertNothingElseLost(s, scope);
        } finally {
            Hooks.resetOnErrorDropped();
        }
    }

    @Test
    @DisplayName("a user token whose wrap returns null: spawn throws a NullPointerException naming wrap, and the association is released")
    void tokenWrapReturnsNull_spawnThrows_associationReleased() throws Exception {
        SimpleCountingScope scope = new SimpleCountingScope();
        Sibling s = new Sibling(scope.getToken());
        AsyncScopeToken target = scope.getToken();
        AsyncScopeToken broken = new AsyncScopeToken() {
            @Override
            public boolean tryAssociate() {
                return target.tryAssociate();
            }

            @Override
            public void dissociate() {
                target.dissociate();
            }

            @Override
            public <T> Sender<T> wrap(Sender<T> sender) {
                return null;
            }
        };
        NullPointerException npe = assertThrows(NullPointerException.class, () -> Scopes.spawn(Senders.just(1), broken));
        assertTrue(npe.getMessage().contains("wrap returned null"), npe.getMessage());
        assertEquals(1, scope.count(), "only the sibling is still associated");
        assertNothingElseLost(s, scope);
    }

    @Test
    @DisplayName("a second completion with an error under spawn and spawnFuture: the violation is reported with that error attached, never lost")
    void secondErrorCompletion_reportedWithTheErrorAsCause() throws Exception {
        List<Throwable> dropped = new CopyOnWriteArrayList<>();
        Hooks.setOnErrorDropped(dropped::add);
        try {
            SimpleCountingScope scope = new SimpleCountingScope();
            IllegalStateException late = new IllegalStateException("second completion");
            Sender<Integer> twice = r -> () -> {
                r.setValue(1);
                r.setError(late);
            };
            assertTrue(Scopes.spawn(twice, scope.getToken()));
            TestReceiver.start(Scopes.spawnFuture(twice, scope.getToken()));
            assertEquals(2, dropped.size(), dropped.toString());
            for (Throwable t : dropped) {
                assertInstanceOf(ProtocolViolationException.class, t);
                assertEquals(List.of(late), List.of(t.getSuppressed()));
            }
            assertEquals(0, scope.count());
        } finally {
            Hooks.resetOnErrorDropped();
        }
    }
}
