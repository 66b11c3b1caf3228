package dev.senders.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.Hooks;
import dev.senders.OperationState;
import dev.senders.ProtocolViolationException;
import dev.senders.Sender;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The library's one rule for a second {@code start()} of an operation state (decision H2 in
 * docs/decisions.md), as one check: the second start throws {@link ProtocolViolationException}
 * (an {@code IllegalStateException}) with the one message of {@code ImmediateOperation.startedTwice},
 * and changes nothing: the receiver gets exactly one completion and nothing reaches
 * {@link Hooks#onErrorDropped}. Each module's {@code DoubleStartTest} runs it on every operation
 * the module makes, one case per operation, named after it. Test support, not published API.
 */
public final class DoubleStart {

    private DoubleStart() {}

    /**
     * A case: the sender whose operation is started twice, how to let its pending work run, and
     * whether the receiver can be stopped (its env carries a stop source's token; else
     * {@link dev.senders.Env#empty()}: some operations take another shape then).
     */
    public record Case(Sender<?> sender, Runnable drive, boolean stoppable) {
        /** A sender whose operation completes once {@code drive} ran; a receiver that cannot be stopped. */
        public Case(Sender<?> sender, Runnable drive) {
            this(sender, drive, false);
        }

        /** A sender whose operation completes without anything to drive; a receiver that cannot be stopped. */
        public Case(Sender<?> sender) {
            this(sender, () -> {}, false);
        }
    }

    /** Connects {@code c}'s sender, starts the operation twice and checks the rule. */
    @SuppressWarnings({"unchecked", "rawtypes"}) // the receiver takes any value
    public static void check(String name, Case c) {
        List<Throwable> dropped = new CopyOnWriteArrayList<>();
        Hooks.setOnErrorDropped(dropped::add);
        try {
            TestReceiver r = c.stoppable() ? TestReceiver.withStopSource() : new TestReceiver<>();
            OperationState op = ((Sender) c.sender()).connect(r);
            op.start();
            IllegalStateException e = assertThrows(IllegalStateException.class, op::start, name);
            assertInstanceOf(ProtocolViolationException.class, e, name);
            assertTrue(e.getMessage().startsWith("start() was called twice on "), name + ": " + e.getMessage());
            c.drive().run();
            r.await();
            assertEquals(1, r.completions(), name + ": " + r.signals());
            assertEquals(List.of(), dropped, name);
        } finally {
            Hooks.resetOnErrorDropped();
        }
    }
}
