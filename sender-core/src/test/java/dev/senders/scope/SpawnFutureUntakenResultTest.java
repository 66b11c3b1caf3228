package dev.senders.scope;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.Env;
import dev.senders.Hooks;
import dev.senders.InplaceStopSource;
import dev.senders.OperationState;
import dev.senders.ProtocolViolationException;
import dev.senders.Sender;
import dev.senders.Senders;
import dev.senders.testkit.ManualSender;
import dev.senders.testkit.TestReceiver;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * spawnFuture: a result already there is delivered to the consumer whatever its stop token says
 * (stop only races work still running), and an error that nobody takes (the consumer was stopped
 * first, or the future was dropped) reaches the scope's error handler, counted, as a spawned
 * error does.
 */
class SpawnFutureUntakenResultTest {

    final List<Throwable> dropped = new CopyOnWriteArrayList<>();
    final List<Throwable> handled = new CopyOnWriteArrayList<>();

    @BeforeEach
    void captureDropped() {
        Hooks.setOnErrorDropped(dropped::add);
    }

    @AfterEach
    void resetHooks() {
        Hooks.resetOnErrorDropped();
    }

    static <T> TestReceiver<T> alreadyStopped() {
        InplaceStopSource stop = new InplaceStopSource();
        stop.requestStop();
        return new TestReceiver<>(TestSenders.stopEnv(stop.token()));
    }

    @Test
    void aConsumerStartedWithAStoppedTokenAfterTheWorkFinished_getsTheValue() {
        CountingScope scope = new CountingScope(handled::add);
        ManualSender<String> work = new ManualSender<>();
        Sender<String> f = Scopes.spawnFuture(work, scope.getToken());
        work.complete("v");
        TestReceiver<String> r = alreadyStopped();
        f.connect(r).start();
        r.assertValue("v");
        assertEquals(1, r.completions());
        scope.close();
        Senders.syncWait(scope.join());
    }

    @Test
    void aConsumerStartedWithAStoppedTokenAfterTheWorkFailed_getsTheErrorAndNothingElseSeesIt() {
        CountingScope scope = new CountingScope(handled::add);
        ManualSender<String> work = new ManualSender<>();
        Sender<String> f = Scopes.spawnFuture(work, scope.getToken());
        RuntimeException boom = new RuntimeException("boom");
        work.fail(boom);
        TestReceiver<String> r = alreadyStopped();
        f.connect(r).start();
        assertEquals(TestReceiver.Kind.ERROR, r.kind());
        assertSame(boom, r.error());
        assertEquals(List.of(), handled, "the consumer took it");
        assertEquals(0, scope.errorCount());
        assertEquals(List.of(), dropped);
        scope.close();
        Senders.syncWait(scope.join());
    }

    @Test
    void aConsumerStartedWithAStoppedTokenAfterInlineWorkFailed_getsTheError() {
        SimpleCountingScope scope = new SimpleCountingScope(handled::add);
        RuntimeException boom = new RuntimeException("boom");
        Sender<String> f = Scopes.spawnFuture(Senders.justError(boom), scope.getToken());
        TestReceiver<String> r = alreadyStopped();
        f.connect(r).start();
        assertSame(boom, r.error());
        assertEquals(0, scope.errorCount());
        scope.close();
        Senders.syncWait(scope.join());
    }

    @Test
    void anErrorOfWorkWhoseConsumerWasStoppedFirst_reachesTheScopesErrorHandlerBeforeTheJoin() {
        CountingScope scope = new CountingScope(handled::add);
        ManualSender<String> work = new ManualSender<>();
        Sender<String> f = Scopes.spawnFuture(work, scope.getToken());
        TestReceiver<String> r = TestReceiver.withStopSource();
        f.connect(r).start();
        r.requestStop();
        r.assertStopped();
        TestReceiver<Void> join = new TestReceiver<>();
        scope.close();
        scope.join().connect(join).start();
        join.assertNotCompleted();
        RuntimeException boom = new RuntimeException("late");
        work.fail(boom);
        assertEquals(List.of(boom), handled);
        assertEquals(1, scope.errorCount());
        join.await().assertValue(null);
        assertEquals(List.of(), dropped);
        assertEquals(1, r.completions());
    }

    @Test
    void anErrorOfWorkWhoseConsumerWasStoppedFirst_goesToTheEnvsSpawnErrorHandler() {
        SimpleCountingScope scope = new SimpleCountingScope(handled::add);
        List<Throwable> viaEnv = new CopyOnWriteArrayList<>();
        Consumer<? super Throwable> h = viaEnv::add;
        ManualSender<String> work = new ManualSender<>();
        Sender<String> f = Scopes.spawnFuture(work, scope.getToken(), Env.of(Scopes.SPAWN_ERROR_HANDLER, h));
        TestReceiver<String> r = TestReceiver.withStopSource();
        f.connect(r).start();
        r.requestStop();
        RuntimeException boom = new RuntimeException("late");
        work.fail(boom);
        assertEquals(List.of(boom), viaEnv);
        assertEquals(List.of(), handled);
        assertEquals(1, scope.errorCount());
        scope.close();
        Senders.syncWait(scope.join());
    }

    @Test
    void aValueOfWorkWhoseConsumerWasStoppedFirst_isDiscardedSilently() {
        SimpleCountingScope scope = new SimpleCountingScope(handled::add);
        ManualSender<String> work = new ManualSender<>();
        Sender<String> f = Scopes.spawnFuture(work, scope.getToken());
        TestReceiver<String> r = TestReceiver.withStopSource();
        f.connect(r).start();
        r.requestStop();
        work.complete("late");
        assertEquals(List.of(), handled);
        assertEquals(0, scope.errorCount());
        assertEquals(List.of(), dropped);
        scope.close();
        Senders.syncWait(scope.join());
    }

    @Test
    void anErrorOfWorkWhoseFutureWasDropped_reachesTheScopesErrorHandler() {
        CountingScope scope = new CountingScope(handled::add);
        RuntimeException boom = new RuntimeException("dropped");
        Scopes.spawnFuture(Senders.justError(boom), scope.getToken());
        assertTrue(Gc.awaitCondition(() -> handled.contains(boom)));
        assertEquals(1, scope.errorCount());
        assertEquals(List.of(), dropped);
        scope.close();
        Senders.syncWait(scope.join());
    }

    static void spawnAndDrop(CountingScope scope, ManualSender<String> work) {
        Scopes.spawnFuture(work, scope.getToken());
    }

    @Test
    void anErrorOfRunningWorkWhoseFutureWasDropped_reachesTheScopesErrorHandlerBeforeTheJoin() {
        CountingScope scope = new CountingScope(handled::add);
        ManualSender<String> work = new ManualSender<>();
        spawnAndDrop(scope, work);
        assertTrue(Gc.awaitCondition(() -> work.receiver().env().stopToken().stopRequested()));
        TestReceiver<Void> join = new TestReceiver<>();
        scope.close();
        scope.join().connect(join).start();
        RuntimeException boom = new RuntimeException("after abandonment");
        work.fail(boom);
        assertEquals(List.of(boom), handled);
        assertEquals(1, scope.errorCount());
        join.await().assertValue(null);
    }

    @Test
    void theConsumersOperationStartedTwice_throwsAndCompletesTheConsumerOnce() {
        SimpleCountingScope scope = new SimpleCountingScope();
        ManualSender<String> work = new ManualSender<>();
        Sender<String> f = Scopes.spawnFuture(work, scope.getToken());
        TestReceiver<String> r = new TestReceiver<>();
        OperationState op = f.connect(r);
        op.start();
        IllegalStateException e = assertThrows(IllegalStateException.class, op::start);
        assertInstanceOf(ProtocolViolationException.class, e);
        work.complete("v");
        r.assertValue("v");
        assertEquals(1, r.completions());
        scope.close();
        Senders.syncWait(scope.join());
    }
}
