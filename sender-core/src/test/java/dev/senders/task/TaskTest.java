package dev.senders.task;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.InplaceStopSource;
import dev.senders.Env;
import dev.senders.Hooks;
import dev.senders.OperationState;
import dev.senders.ProtocolViolationException;
import dev.senders.Query;
import dev.senders.Sender;
import dev.senders.Senders;
import dev.senders.StopToken;
import dev.senders.testkit.TestReceiver;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The body/await/completion rules of {@link Task} (P3552R0, P2300R3 receiver contract). */
class TaskTest {

    private final List<Throwable> dropped = new CopyOnWriteArrayList<>();

    @BeforeEach
    void captureDropped() {
        Hooks.setOnErrorDropped(dropped::add);
    }

    @AfterEach
    void resetDropped() {
        Hooks.resetOnErrorDropped();
    }

    // ------------------------------------------------------------ laziness, multi-shot

    @Test
    @DisplayName("P3552 lazy: neither of() nor connect() runs the body; start() does")
    void lazy_nothingRunsBeforeStart() {
        AtomicInteger runs = new AtomicInteger();
        Task<Integer> task = Task.of(ctx -> runs.incrementAndGet());
        TestReceiver<Integer> p = TestReceiver.withStopSource();
        OperationState op = task.connect(p);
        assertEquals(0, runs.get());
        assertEquals(0, p.completions());
        op.start();
        p.awaitSignal(TestReceiver.Kind.VALUE);
        assertEquals(1, runs.get());
        assertEquals(1, p.value());
    }

    @Test
    @DisplayName("P2300 [exec.snd] multi-shot: each connect is a new run of the body")
    void multiShot_eachConnectRunsTheBodyAnew() {
        AtomicInteger runs = new AtomicInteger();
        Task<Integer> task = Task.of(ctx -> ctx.await(Senders.just(runs.incrementAndGet())) * 10);
        assertEquals(Integer.valueOf(10), Senders.syncWait(task));
        assertEquals(Integer.valueOf(20), Senders.syncWait(task));
        assertEquals(2, runs.get());
    }

    @Test
    @DisplayName("P2300 [exec.opstate] an unstarted operation is dropped without running or completing")
    void droppedUnstartedOperation_runsNothing() {
        AtomicInteger runs = new AtomicInteger();
        TestReceiver<Integer> p = TestReceiver.withStopSource();
        Task.of(ctx -> runs.incrementAndGet()).connect(p);
        assertEquals(0, runs.get());
        assertEquals(0, p.completions());
    }

    // ------------------------------------------------------------ await results

    @Test
    @DisplayName("P3552 co_await: an awaited value is returned")
    void coAwait_valueIsReturned() {
        assertEquals(Integer.valueOf(42), Senders.syncWait(Task.of(ctx -> ctx.await(Senders.just(41)) + 1)));
    }

    @Test
    @DisplayName("P3552 co_await: an awaited Void sender returns null")
    void coAwait_voidSenderReturnsNull() {
        assertEquals("null", Senders.syncWait(Task.of(ctx -> String.valueOf(ctx.await(Senders.just())))));
    }

    @Test
    @DisplayName("P3552 co_await: an awaited error is thrown at the await, the original object")
    void coAwait_errorIsThrownAtTheAwait_originalObject() {
        IllegalStateException boom = new IllegalStateException("boom");
        Object caught = Senders.syncWait(Task.of(ctx -> {
            try {
                ctx.await(Senders.justError(boom));
                return "not thrown";
            } catch (IllegalStateException e) {
                return e;
            }
        }));
        assertSame(boom, caught);
    }

    @Test
    @DisplayName("P3552 co_await: a checked awaited error is thrown undeclared, the original object")
    void coAwait_checkedErrorIsThrownUndeclared_originalObject() {
        IOException io = new IOException("disk");
        Object caught = Senders.syncWait(Task.of(ctx -> {
            try {
                ctx.await(Senders.justError(io));
                return "not thrown";
            } catch (Exception e) {   // IOException is not declared by await: catch broadly
                return e;
            }
        }));
        assertSame(io, caught);
    }

    @Test
    @DisplayName("P3552 completion signatures: an exception escaping the body completes setError with it")
    void escapingException_completesSetErrorWithIt() {
        IOException io = new IOException("disk");
        TestReceiver<Object> p = TestReceiver.start(Task.of(ctx -> ctx.await(Senders.justError(io))));
        p.awaitSignal(TestReceiver.Kind.ERROR);
        assertSame(io, p.error());

        RuntimeException thrown = new RuntimeException("thrown by the body");
        TestReceiver<Object> q = TestReceiver.start(Task.of(ctx -> {
            throw thrown;
        }));
        q.awaitSignal(TestReceiver.Kind.ERROR);
        assertSame(thrown, q.error());
    }

    // ------------------------------------------------------------ stopped awaits

    @Test
    @DisplayName("P3552 co_await just_stopped(): the body unwinds with TaskStoppedException, finally sees it, the task completes stopped")
    void coAwaitStopped_unwindsTheBody_finallySeesTaskStoppedException_taskCompletesStopped() {
        AtomicReference<Throwable> seenInFinally = new AtomicReference<>();
        AtomicInteger afterAwait = new AtomicInteger();
        TestReceiver<Object> p = TestReceiver.start(Task.of(ctx -> {
            Throwable[] escaping = {null};
            try {
                ctx.await(Senders.justStopped());
                afterAwait.incrementAndGet();
                return "value";
            } catch (Throwable t) {
                escaping[0] = t;
                throw t;
            } finally {
                seenInFinally.set(escaping[0]);
            }
        }));
        p.awaitSignal(TestReceiver.Kind.STOPPED);
        assertEquals(0, afterAwait.get());
        assertInstanceOf(TaskStoppedException.class, seenInFinally.get());
        assertTrue(dropped.isEmpty(), () -> "dropped: " + dropped);
    }

    @Test
    @DisplayName("P3552 stopped await is not resumable: catching TaskStoppedException and returning a value still completes stopped")
    void stoppedAwait_catchingTheStopDoesNotTurnItIntoAValue() {
        TestReceiver<String> p = TestReceiver.start(Task.of(ctx -> {
            try {
                ctx.await(Senders.justStopped());
            } catch (TaskStoppedException e) {
                return "recovered?";
            }
            return "unreachable";
        }));
        p.awaitSignal(TestReceiver.Kind.STOPPED);
        assertNull(p.value());
    }

    @Test
    @DisplayName("P3552 explicit opt-out: clearStopped() after catching the stop lets the body's value through")
    void stoppedAwait_clearStoppedIsTheExplicitOptOut() {
        TestReceiver<String> p = TestReceiver.start(Task.of(ctx -> {
            try {
                ctx.await(Senders.justStopped());
                return "unreachable";
            } catch (TaskStoppedException e) {
                boolean wasLatched = ctx.clearStopped();
                return "recovered " + wasLatched + " " + ctx.clearStopped();
            }
        }));
        p.awaitSignal(TestReceiver.Kind.VALUE);
        assertEquals("recovered true false", p.value());
    }

    @Test
    @DisplayName("P3552 stopped await: an error thrown while unwinding is never lost (onErrorDropped), the task still completes stopped")
    @SuppressWarnings("finally")
    void stoppedAwait_errorThrownWhileUnwinding_goesToOnErrorDropped() {
        IOException cleanupFailure = new IOException("close failed");
        TestReceiver<Object> p = TestReceiver.start(Task.of(ctx -> {
            try {
                return ctx.await(Senders.justStopped());
            } finally {
                throw cleanupFailure;
            }
        }));
        p.awaitSignal(TestReceiver.Kind.STOPPED);
        assertEquals(List.of(cleanupFailure), dropped);
    }

    @Test
    @DisplayName("P3552 the body may complete the task stopped itself by throwing TaskStoppedException")
    void bodyThrowingTaskStoppedException_completesStopped() {
        TestReceiver<Object> p = TestReceiver.start(Task.of(ctx -> {
            throw new TaskStoppedException("the body gave up");
        }));
        p.awaitSignal(TestReceiver.Kind.STOPPED);
    }

    @Test
    @DisplayName("P3552 awaits after a stopped await (cleanup in finally) still work")
    void awaitInFinallyAfterStoppedAwait_works() {
        AtomicInteger cleanup = new AtomicInteger();
        TestReceiver<Object> p = TestReceiver.start(Task.of(ctx -> {
            try {
                return ctx.await(Senders.justStopped());
            } finally {
                cleanup.set(ctx.await(Senders.just(7)));
            }
        }));
        p.awaitSignal(TestReceiver.Kind.STOPPED);
        assertEquals(7, cleanup.get());
    }

    // ------------------------------------------------------------ errors without throwing

    @Test
    @DisplayName("P3552 error reporting without exception: return ctx.fail(e) completes setError(e)")
    void errorReportingWithoutThrowing_failCompletesSetError() {
        IOException notFound = new IOException("not found");
        TestReceiver<Integer> p = TestReceiver.start(Task.of(ctx -> {
            int v = ctx.await(Senders.just(1));
            if (v == 1) {
                return ctx.fail(notFound);
            }
            return v;
        }));
        p.awaitSignal(TestReceiver.Kind.ERROR);
        assertSame(notFound, p.error());
        assertEquals(0, notFound.getSuppressed().length);
    }

    @Test
    @DisplayName("fail: the first outcome wins; a later exception is added as suppressed, never lost")
    void fail_thenThrow_firstErrorWins_laterOneSuppressed() {
        IOException first = new IOException("first");
        IllegalStateException second = new IllegalStateException("second");
        IllegalArgumentException third = new IllegalArgumentException("third");
        TestReceiver<Object> p = TestReceiver.start(Task.of(ctx -> {
            ctx.fail(first);
            ctx.fail(second);
            throw third;
        }));
        p.awaitSignal(TestReceiver.Kind.ERROR);
        assertSame(first, p.error());
        assertEquals(List.of(second, third), List.of(first.getSuppressed()));
    }

    @Test
    @DisplayName("fail after a stopped await: the task completes stopped, the error goes to onErrorDropped")
    void fail_afterStoppedAwait_isDropped_taskStopped() {
        IOException late = new IOException("late");
        TestReceiver<Object> p = TestReceiver.start(Task.of(ctx -> {
            try {
                return ctx.await(Senders.justStopped());
            } catch (TaskStoppedException e) {
                return ctx.fail(late);
            }
        }));
        p.awaitSignal(TestReceiver.Kind.STOPPED);
        assertEquals(List.of(late), dropped);
    }

    // ------------------------------------------------------------ env

    @Test
    @DisplayName("P3552 environment: awaited senders see the receiver's queries and the task's own stop token")
    void env_awaitedSendersSeeReceiverQueriesAndTheTaskStopToken() {
        Query<String> user = Query.named("user");
        AtomicReference<StopToken> ctxToken = new AtomicReference<>();
        TestReceiver<Object[]> p = TestReceiver.withStopSource(Env.of(user, "alice"));
        Task.of(ctx -> {
            ctxToken.set(ctx.stopToken());
            return new Object[] {ctx.await(Senders.read(user)), ctx.await(Senders.read(Query.STOP_TOKEN)),
                ctx.env().get(user)};
        }).connect(p).start();
        p.awaitSignal(TestReceiver.Kind.VALUE);
        assertEquals("alice", p.value()[0]);
        assertSame(ctxToken.get(), p.value()[1]);
        assertEquals("alice", p.value()[2]);
        assertTrue(ctxToken.get().stopPossible());
    }

    // ------------------------------------------------------------ contract misuse

    @Test
    @DisplayName("P2300 receiver throwing from setValue has not accepted it: it gets setError")
    void receiverThrowingFromSetValue_getsSetError() {
        IllegalStateException rejected = new IllegalStateException("rejected");
        TestReceiver<Integer> p = new TestReceiver<>(Env.empty(), new InplaceStopSource()) {
            @Override
            public void setValue(Integer v) {
                throw rejected;
            }
        };
        Task.of(ctx -> 1).connect(p).start();
        p.awaitSignal(TestReceiver.Kind.ERROR);
        assertSame(rejected, p.error());
    }

    @Test
    @DisplayName("the context rejects use outside the body's thread and after the body returned")
    void context_rejectsUseOffTheTaskThreadAndAfterTheBody() throws Exception {
        AtomicReference<Task.Context> leaked = new AtomicReference<>();
        AtomicReference<Throwable> fromOtherThread = new AtomicReference<>();
        Senders.syncWait(Task.of(ctx -> {
            leaked.set(ctx);
            Thread t = new Thread(() -> {
                try {
                    ctx.await(Senders.just(1));
                } catch (Throwable e) {
                    fromOtherThread.set(e);
                }
            });
            t.start();
            t.join();
            return null;
        }));
        assertInstanceOf(IllegalStateException.class, fromOtherThread.get());
        assertThrows(IllegalStateException.class, () -> leaked.get().await(Senders.just(1)));
        assertThrows(IllegalStateException.class, () -> leaked.get().fail(new Exception()));
        assertThrows(IllegalStateException.class, () -> leaked.get().clearStopped());
    }

    @Test
    @DisplayName("every public entry point rejects null")
    void nullArguments_rejected() {
        assertThrows(NullPointerException.class, () -> Task.of(null));
        assertThrows(NullPointerException.class, () -> Task.of(null, ctx -> 1));
        assertThrows(NullPointerException.class, () -> Task.of(Runnable::run, null));
        assertThrows(NullPointerException.class, () -> Task.of(ctx -> 1).connect(null));
        assertThrows(NullPointerException.class, () -> Task.isVirtual(null));
        List<Class<?>> thrown = Senders.syncWait(Task.of(ctx -> {
            List<Class<?>> l = new CopyOnWriteArrayList<>();
            for (Runnable r : List.<Runnable>of(() -> ctx.await(null), () -> ctx.fail(null),
                    () -> ctx.runOn(null, () -> 1), () -> ctx.runOn(dev.senders.Schedulers.inline(), null))) {
                try {
                    r.run();
                } catch (Throwable t) {
                    l.add(t.getClass());
                }
            }
            return l;
        }));
        assertEquals(List.of(NullPointerException.class, NullPointerException.class,
                NullPointerException.class, NullPointerException.class), thrown);
    }

    @Test
    @DisplayName("P2300 [exec.opstate] a second start throws ProtocolViolationException, not a second run")
    void startTwice_throws_bodyRunsOnce() {
        AtomicInteger runs = new AtomicInteger();
        TestReceiver<Integer> p = TestReceiver.withStopSource();
        OperationState op = Task.of(ctx -> runs.incrementAndGet()).connect(p);
        op.start();
        assertThrows(ProtocolViolationException.class, op::start);
        p.awaitSignal(TestReceiver.Kind.VALUE);
        assertEquals(1, runs.get());
        assertEquals(1, p.completions());
        assertEquals(0, dropped.size());
    }

    @Test
    @DisplayName("P2300 an awaited sender that completes twice: the first completion counts, the second is reported")
    void awaitedSenderCompletingTwice_firstCounts_secondReported() {
        Sender<Integer> twice = r -> () -> {
            r.setValue(1);
            r.setValue(2);
        };
        assertEquals(Integer.valueOf(1), Senders.syncWait(Task.of(ctx -> ctx.await(twice))));
        assertEquals(1, dropped.size());
        assertInstanceOf(ProtocolViolationException.class, dropped.get(0));
    }

    @Test
    @DisplayName("P2300 an awaited sender completing before start: the await throws a ProtocolViolationException")
    void awaitedSenderCompletingBeforeStart_awaitThrowsProtocolViolation() {
        Sender<Integer> early = r -> {
            r.setValue(1);
            return () -> { };
        };
        TestReceiver<Integer> p = TestReceiver.start(Task.of(ctx -> ctx.await(early)));
        p.awaitSignal(TestReceiver.Kind.ERROR);
        assertInstanceOf(ProtocolViolationException.class, p.error());
    }

    @Test
    @DisplayName("an executor that rejects the body completes the task with setError")
    void rejectedExecution_completesSetError() {
        RejectedExecutionException rejected = new RejectedExecutionException("full");
        TestReceiver<Integer> p = TestReceiver.start(Task.of(r -> {
            throw rejected;
        }, ctx -> 1));
        p.awaitSignal(TestReceiver.Kind.ERROR);
        assertSame(rejected, p.error());
    }

    @Test
    @DisplayName("a receiver env that throws completes the task with setError without running the body")
    void throwingReceiverEnv_completesSetError() {
        IllegalStateException envFailure = new IllegalStateException("env");
        AtomicInteger runs = new AtomicInteger();
        TestReceiver<Integer> p = new TestReceiver<>(Env.empty(), new InplaceStopSource()) {
            @Override
            public Env env() {
                throw envFailure;
            }
        };
        Task.of(ctx -> runs.incrementAndGet()).connect(p).start();
        p.awaitSignal(TestReceiver.Kind.ERROR);
        assertSame(envFailure, p.error());
        assertEquals(0, runs.get());
        assertFalse(p.thread() == null);
    }

    @Test
    @DisplayName("an InterruptedException escaping the body without a stop request is an ordinary error")
    void interruptedExceptionWithoutStop_isAnError() {
        TestReceiver<Object> p = TestReceiver.start(Task.of(ctx -> {
            Thread.currentThread().interrupt();
            Thread.sleep(1);
            return "not interrupted";
        }));
        p.awaitSignal(TestReceiver.Kind.ERROR);
        assertInstanceOf(InterruptedException.class, p.error());
    }

    @Test
    @DisplayName("decisions.md C8: a fatal error from the body completes the task with it (nobody waits forever) and still reaches the thread's uncaught-exception handler")
    void fatalErrorFromTheBody_isDeliveredAndPropagatesOnTheTaskThread() throws Exception {
        StackOverflowError fatal = new StackOverflowError("simulated");
        AtomicReference<Throwable> uncaught = new AtomicReference<>();
        java.util.concurrent.CountDownLatch died = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.Executor executor = r -> {
            Thread t = new Thread(r, "fatal-test");
            t.setUncaughtExceptionHandler((th, e) -> {
                uncaught.set(e);
                died.countDown();
            });
            t.start();
        };
        TestReceiver<Object> p = TestReceiver.start(Task.of(executor, ctx -> {
            throw fatal;
        }));
        assertTrue(died.await(10, java.util.concurrent.TimeUnit.SECONDS), "hang guard");
        assertSame(fatal, uncaught.get());
        p.awaitSignal(TestReceiver.Kind.ERROR);
        assertSame(fatal, p.error());
    }

}
