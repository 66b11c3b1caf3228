package dev.senders.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.senders.Hooks;
import dev.senders.OperationState;
import dev.senders.testkit.TestReceiver;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The per-thread trampoline's contract (class comment of {@link Trampoline}). */
class TrampolineContractTest {

    @AfterEach
    void resetHooks() {
        Hooks.resetOnErrorDropped();
    }

    /** Runs {@code body} from inside {@code Trampoline.DEFAULT_MAX_DEPTH} nested frames: anything it trampolines is queued. */
    private static void atMaxDepth(Runnable body) {
        nest(Trampoline.DEFAULT_MAX_DEPTH, body);
    }

    private static void nest(int frames, Runnable body) {
        if (frames == 0) {
            body.run();
        } else {
            Trampoline.run(() -> nest(frames - 1, body));
        }
    }

    @Test
    @DisplayName("run(step, a, b) runs inline while shallow and is queued at the maximum depth, in order")
    void biConsumerRun_inlineWhileShallowQueuedWhenDeep() {
        StringBuilder log = new StringBuilder();
        Trampoline.run(StringBuilder::append, log, "a");
        assertEquals("a", log.toString(), "inline at depth 0");
        atMaxDepth(() -> {
            Trampoline.run(StringBuilder::append, log, "b");
            Trampoline.run(StringBuilder::append, log, "c");
            log.append('|');
        });
        assertEquals("a|bc", log.toString(), "queued, then run in order when the outermost frame returned");
    }

    @Test
    @DisplayName("queued work that throws goes to onErrorDropped and the rest of the queue still runs")
    void queuedWorkThatThrows_isReportedAndTheQueueGoesOn() {
        List<Throwable> dropped = new CopyOnWriteArrayList<>();
        Hooks.setOnErrorDropped(dropped::add);
        IllegalStateException boom = new IllegalStateException("boom");
        StringBuilder log = new StringBuilder();
        atMaxDepth(() -> {
            Trampoline.run(() -> {
                throw boom;
            });
            Trampoline.run(() -> log.append("after"));
        });
        assertEquals(List.of(boom), dropped);
        assertEquals("after", log.toString());
    }

    @Test
    @DisplayName("the outermost frame drains the queue even when its own work throws, and rethrows")
    void outermostFrameThatThrows_stillDrains() {
        StringBuilder log = new StringBuilder();
        IllegalStateException boom = new IllegalStateException("boom");
        assertSame(boom, assertThrows(IllegalStateException.class, () -> Trampoline.run(() -> {
            nest(Trampoline.DEFAULT_MAX_DEPTH - 1, () -> Trampoline.run(() -> log.append("queued")));
            throw boom;
        })));
        assertEquals("queued", log.toString());
    }

    @Test
    @DisplayName("start: a throwing start propagates when inline and becomes the receiver's error when queued")
    void start_throwingStart_inlinePropagatesQueuedIsTheReceiversError() {
        IllegalStateException boom = new IllegalStateException("start threw");
        OperationState broken = () -> {
            throw boom;
        };
        TestReceiver<Object> inline = new TestReceiver<>();
        assertSame(boom, assertThrows(IllegalStateException.class, () -> Trampoline.start(broken, inline)));
        assertEquals(false, inline.isDone());

        TestReceiver<Object> queued = new TestReceiver<>();
        atMaxDepth(() -> Trampoline.start(broken, queued));
        assertEquals(TestReceiver.Kind.ERROR, queued.kind());
        assertSame(boom, queued.error());
    }

    @Test
    @DisplayName("isolated runs the work the enclosing frames queued before its body, and restores them after")
    void isolated_runsOuterQueuedWorkFirst() {
        StringBuilder log = new StringBuilder();
        atMaxDepth(() -> {
            Trampoline.run(() -> log.append("queued;"));
            Trampoline.isolated(() -> log.append("body;"));
            Trampoline.run(() -> log.append("queued-after;")); // still queued: the outer depth is restored
            log.append("returning;");
        });
        assertEquals("queued;body;returning;queued-after;", log.toString());
    }
}
