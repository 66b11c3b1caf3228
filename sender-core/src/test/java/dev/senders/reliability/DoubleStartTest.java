package dev.senders.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.Hooks;
import dev.senders.InplaceStopSource;
import dev.senders.OperationState;
import dev.senders.ProtocolViolationException;
import dev.senders.RunLoop;
import dev.senders.Scheduler;
import dev.senders.Schedulers;
import dev.senders.Sender;
import dev.senders.Senders;
import dev.senders.scope.Scopes;
import dev.senders.scope.SimpleCountingScope;
import dev.senders.task.Task;
import dev.senders.testkit.ManualExecutor;
import dev.senders.testkit.TestReceiver;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The library's one rule for a second {@code start()} of an operation state (docs/decisions.md):
 * it throws {@link ProtocolViolationException} (an {@code IllegalStateException}) and changes
 * nothing; the receiver gets exactly one completion. Checked on every operation the library makes.
 */
class DoubleStartTest {

    final List<Throwable> dropped = new CopyOnWriteArrayList<>();

    @BeforeEach
    void captureDropped() {
        Hooks.setOnErrorDropped(dropped::add);
    }

    @AfterEach
    void resetHooks() {
        Hooks.resetOnErrorDropped();
    }

    /** What the test needs to drive a case: the sender, and how to let pending work run. */
    record Case(Sender<?> sender, Runnable drive) {}

    static List<Arguments> operations() {
        ManualExecutor manual = new ManualExecutor();
        Scheduler onManual = Schedulers.fromExecutor(manual);
        RunLoop loop = Schedulers.runLoop();
        SimpleCountingScope scope = new SimpleCountingScope();
        SimpleCountingScope closed = new SimpleCountingScope();
        closed.close();
        Runnable none = () -> { };
        Runnable runManual = manual::runAll;
        Runnable runLoop = () -> {
            loop.finish();
            loop.run();
        };
        return List.of(
                Arguments.of("just", new Case(Senders.just(1), none)),
                Arguments.of("justError", new Case(Senders.justError(new IllegalStateException("x")), none)),
                Arguments.of("justStopped", new Case(Senders.justStopped(), none)),
                Arguments.of("schedule(inline)", new Case(Senders.schedule(Schedulers.inline()), none)),
                Arguments.of("schedule(trampoline)", new Case(Senders.schedule(Schedulers.trampoline()), none)),
                Arguments.of("schedule(fromExecutor)", new Case(Senders.schedule(onManual), runManual)),
                Arguments.of("schedule(runLoop)", new Case(Senders.schedule(loop), runLoop)),
                Arguments.of("then", new Case(Senders.just(1).then(v -> v + 1), none)),
                Arguments.of("letValue", new Case(Senders.just(1).letValue(Senders::just), none)),
                Arguments.of("startsOn(inline)", new Case(Senders.just(1).startsOn(Schedulers.inline()), none)),
                Arguments.of("startsOn(fromExecutor)", new Case(Senders.just(1).startsOn(onManual), runManual)),
                Arguments.of("continuesOn(fromExecutor)", new Case(Senders.just(1).continuesOn(onManual), runManual)),
                Arguments.of("continuesOn(inline)", new Case(Senders.just(1).continuesOn(Schedulers.inline()), none)),
                Arguments.of("whenAll", new Case(Senders.whenAll(Senders.just(1), Senders.just(2)), none)),
                Arguments.of("whenAny", new Case(Senders.whenAny(Senders.just(1), Senders.just(2)), none)),
                Arguments.of("stopWhen", new Case(Senders.just(1).stopWhen(new InplaceStopSource().token()), none)),
                Arguments.of("fromCompletionStage", new Case(
                        Senders.fromCompletionStage(CompletableFuture.completedFuture(1)), none)),
                Arguments.of("Task", new Case(Task.of(manual, ctx -> 1), runManual)),
                Arguments.of("nest", new Case(Scopes.nest(Senders.just(1), scope.getToken()), none)),
                Arguments.of("nest into a closed scope", new Case(Scopes.nest(Senders.just(1), closed.getToken()), none)),
                Arguments.of("spawnFuture", new Case(Scopes.spawnFuture(Senders.just(1), scope.getToken()), none)),
                Arguments.of("spawnFuture into a closed scope",
                        new Case(Scopes.spawnFuture(Senders.just(1), closed.getToken()), none)),
                Arguments.of("letAsyncScope", new Case(Scopes.letAsyncScope(t -> Senders.just(1)), none)),
                Arguments.of("join", new Case(closed.join(), none)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("operations")
    @SuppressWarnings({"unchecked", "rawtypes"})
    void aSecondStartThrowsAViolationAndTheReceiverCompletesOnce(String name, Case c) {
        TestReceiver r = new TestReceiver<>();
        OperationState op = ((Sender) c.sender()).connect(r);
        op.start();
        IllegalStateException e = assertThrows(IllegalStateException.class, op::start, name);
        assertInstanceOf(ProtocolViolationException.class, e);
        assertTrue(e.getMessage().contains("called twice"), e.getMessage());
        c.drive().run();
        r.await();
        assertEquals(1, r.completions(), name + ": " + r.signals());
        assertEquals(List.of(), dropped);
    }
}
