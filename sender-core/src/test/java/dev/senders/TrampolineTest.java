package dev.senders;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.internal.Trampoline;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The trampoline scheduler (stdexec trampoline_scheduler) and the internal Trampoline. */
class TrampolineTest {

    private static final int STEPS = 200_000;

    private static void reschedule(Scheduler s, int remaining, AtomicInteger done, int[] maxStack) {
        s.schedule().connect(new Receiver<Void>() {
            @Override
            public void setValue(Void v) {
                maxStack[0] = Math.max(maxStack[0], Thread.currentThread().getStackTrace().length);
                if (remaining == 0) {
                    done.incrementAndGet();
                } else {
                    reschedule(s, remaining - 1, done, maxStack);
                }
            }

            @Override
            public void setError(Throwable error) {}

            @Override
            public void setStopped() {}
        }).start();
    }

    @Test
    @DisplayName("trampoline: recursive scheduling of 200,000 steps completes on the starting thread with bounded stack")
    void trampoline_recursiveSchedulingIsStackSafe() {
        AtomicInteger done = new AtomicInteger();
        int[] maxStack = new int[1];
        reschedule(Schedulers.trampoline(), STEPS, done, maxStack);
        assertEquals(1, done.get());
        assertTrue(maxStack[0] < 2_000, "stack depth " + maxStack[0]);
    }

    @Test
    @DisplayName("trampoline: Trampoline.run runs inline while shallow and defers beyond maxDepth")
    void trampoline_runsInlineThenDefers() {
        StringBuilder log = new StringBuilder();
        Trampoline.run(() -> {
            log.append('a');
            Trampoline.run(() -> log.append('b'), 1); // depth 1 >= 1: deferred
            log.append('c');
        }, 1);
        assertEquals("acb", log.toString());
        StringBuilder inline = new StringBuilder();
        Trampoline.run(() -> {
            inline.append('a');
            Trampoline.run(() -> inline.append('b'), 2);
            inline.append('c');
        }, 2);
        assertEquals("abc", inline.toString());
    }

    @Test
    @DisplayName("trampoline(maxDepth) rejects a depth below 1")
    void trampoline_rejectsBadDepth() {
        assertThrows(IllegalArgumentException.class, () -> Schedulers.trampoline(0));
    }
}
