package dev.senders.reliability;

import dev.senders.InplaceStopSource;
import dev.senders.Query;
import dev.senders.RunLoop;
import dev.senders.Scheduler;
import dev.senders.Schedulers;
import dev.senders.Senders;
import dev.senders.flow.FlowSenders;
import dev.senders.scope.Scopes;
import dev.senders.scope.SimpleCountingScope;
import dev.senders.task.Task;
import dev.senders.testkit.DoubleStart;
import dev.senders.testkit.DoubleStart.Case;
import dev.senders.testkit.ManualExecutor;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The double-start rule ({@link DoubleStart}) on every operation sender-core makes.
 */
class DoubleStartTest {

    @ParameterizedTest(name = "{0}")
    @MethodSource("operations")
    void aSecondStartThrowsAViolationAndTheReceiverCompletesOnce(String name, Case c) {
        DoubleStart.check(name, c);
    }

    /**
     * The scopes of the scope cases, reachable for the whole class: {@code nest} associates when
     * the sender is made, and a scope dropped while associated is reported as leaked.
     */
    private static final SimpleCountingScope SCOPE = new SimpleCountingScope();
    private static final SimpleCountingScope CLOSED = new SimpleCountingScope();

    static {
        CLOSED.close();
    }

    static List<Arguments> operations() {
        ManualExecutor manual = new ManualExecutor();
        Scheduler onManual = Schedulers.fromExecutor(manual);
        RunLoop loop = Schedulers.runLoop();
        SimpleCountingScope scope = SCOPE;
        SimpleCountingScope closed = CLOSED;
        Runnable runManual = manual::runAll;
        Runnable runLoop = () -> {
            loop.finish();
            loop.run();
        };
        return List.of(
                Arguments.of("just", new Case(Senders.just(1))),
                Arguments.of("justError", new Case(Senders.justError(new IllegalStateException("x")))),
                Arguments.of("justStopped", new Case(Senders.justStopped())),
                Arguments.of("read", new Case(Senders.read(Query.STOP_TOKEN))),
                Arguments.of("schedule(inline)", new Case(Senders.schedule(Schedulers.inline()))),
                Arguments.of("schedule(trampoline)", new Case(Senders.schedule(Schedulers.trampoline()))),
                Arguments.of("schedule(fromExecutor)", new Case(Senders.schedule(onManual), runManual)),
                Arguments.of("schedule(runLoop)", new Case(Senders.schedule(loop), runLoop)),
                Arguments.of("then", new Case(Senders.just(1).then(v -> v + 1))),
                Arguments.of("letValue", new Case(Senders.just(1).letValue(Senders::just))),
                Arguments.of("startsOn(inline)", new Case(Senders.just(1).startsOn(Schedulers.inline()))),
                Arguments.of("startsOn(fromExecutor)", new Case(Senders.just(1).startsOn(onManual), runManual)),
                Arguments.of("continuesOn(fromExecutor)", new Case(Senders.just(1).continuesOn(onManual), runManual)),
                Arguments.of("continuesOn(inline)", new Case(Senders.just(1).continuesOn(Schedulers.inline()))),
                Arguments.of("whenAll", new Case(Senders.whenAll(Senders.just(1), Senders.just(2)))),
                Arguments.of("whenAny", new Case(Senders.whenAny(Senders.just(1), Senders.just(2)))),
                Arguments.of("stopWhen", new Case(Senders.just(1).stopWhen(new InplaceStopSource().token()))),
                Arguments.of("stopWhen, downstream that can stop",
                        new Case(Senders.just(1).stopWhen(new InplaceStopSource().token()), () -> {}, true)),
                Arguments.of("timeout", new Case(Senders.just(1).timeout(Duration.ofMinutes(1)))),
                Arguments.of("fromCompletionStage", new Case(
                        Senders.fromCompletionStage(CompletableFuture.completedFuture(1)))),
                Arguments.of("FlowSenders.fromPublisher", new Case(FlowSenders.fromPublisher(completed()))),
                Arguments.of("FlowSenders.fromPublisherList", new Case(FlowSenders.fromPublisherList(completed()))),
                Arguments.of("Task", new Case(Task.of(manual, ctx -> 1), runManual)),
                Arguments.of("nest", new Case(Scopes.nest(Senders.just(1), scope.getToken()))),
                Arguments.of("nest into a closed scope", new Case(Scopes.nest(Senders.just(1), closed.getToken()))),
                Arguments.of("spawnFuture", new Case(Scopes.spawnFuture(Senders.just(1), scope.getToken()))),
                Arguments.of("spawnFuture into a closed scope",
                        new Case(Scopes.spawnFuture(Senders.just(1), closed.getToken()))),
                Arguments.of("letAsyncScope", new Case(Scopes.letAsyncScope(t -> Senders.just(1)))),
                Arguments.of("join", new Case(closed.join())));
    }

    /** A Flow publisher that completes empty inside {@code subscribe}. */
    private static Flow.Publisher<Integer> completed() {
        return s -> {
            s.onSubscribe(new Flow.Subscription() {
                @Override
                public void request(long n) {}

                @Override
                public void cancel() {}
            });
            s.onComplete();
        };
    }
}
