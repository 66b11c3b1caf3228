package dev.senders;

import static dev.senders.Senders.just;
import static dev.senders.Senders.syncWait;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Long synchronous chains must not overflow the stack, on the default thread stack. */
class StackSafetyTest {

    private static final int LOOP = 1_000_000;
    private static final int THENS = 100_000;

    private static Sender<Integer> loop(int i) {
        return just(i).letValue(v -> v < LOOP ? loop(v + 1) : just(v));
    }

    @Test
    @DisplayName("letValue: a recursive loop of 1,000,000 steps over just completes without StackOverflowError")
    void letValue_recursiveLoopOfAMillionStepsIsStackSafe() {
        assertEquals(LOOP, syncWait(loop(0)));
    }

    @Test
    @DisplayName("letValue: a recursive loop on the inline scheduler (startsOn(inline)) is stack safe")
    void letValue_recursiveLoopOnInlineSchedulerIsStackSafe() {
        assertEquals(LOOP, syncWait(inlineLoop(0)));
    }

    private static Sender<Integer> inlineLoop(int i) {
        return Senders.schedule(Schedulers.inline()).then(x -> i)
                .letValue(v -> v < LOOP ? inlineLoop(v + 1) : just(v));
    }

    @Test
    @DisplayName("then: 100,000 nested thens complete without StackOverflowError")
    void then_hundredThousandNestedThensAreStackSafe() {
        Sender<Integer> s = just(0);
        for (int i = 0; i < THENS; i++) {
            s = s.then(x -> x + 1);
        }
        assertEquals(THENS, syncWait(s));
        // multi-shot: a second run gives the same result
        assertEquals(THENS, syncWait(s));
    }

    @Test
    @DisplayName("then/uponError/uponStopped mixed: 100,000 fused stages apply in order")
    void fusedStages_mixedChainAppliesInOrder() {
        Sender<Integer> s = just(0);
        int triples = THENS / 3;
        for (int i = 0; i < triples * 3; i++) {
            if (i % 3 == 0) {
                s = s.then(x -> {
                    throw new IllegalStateException("boom " + x);
                });
            } else if (i % 3 == 1) {
                s = s.uponError(e -> Integer.parseInt(e.getMessage().substring(5)) + 1);
            } else {
                s = s.uponStopped(() -> -1);
            }
        }
        // each triple: throw(x) -> error -> x+1 -> (stopped stage skipped)
        assertEquals(triples, syncWait(s));
    }

    private static Sender<Integer> mixedLoop(int i) {
        return just(i).then(x -> x + 1).continuesOn(Schedulers.inline()).stopWhen(new InplaceStopSource().token())
                .letValue(v -> v < LOOP / 10 ? mixedLoop(v) : just(v));
    }

    @Test
    @DisplayName("letValue: a loop through then, continuesOn(inline) and stopWhen is stack safe (100,000 steps)")
    void letValue_loopThroughOtherAdaptorsIsStackSafe() {
        assertEquals(LOOP / 10, syncWait(mixedLoop(0)));
    }

    /** A stackless error: the test is about stack depth, not about filling in a million traces. */
    private static final class Step extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Step(int i) {
            super(Integer.toString(i), null, false, false);
        }
    }

    private static Sender<Integer> errorLoop(int i) {
        return Senders.<Integer>justError(new Step(i))
                .letError(e -> {
                    int v = Integer.parseInt(e.getMessage());
                    return v < LOOP ? errorLoop(v + 1) : just(v);
                });
    }

    @Test
    @DisplayName("letError: a recursive loop of 1,000,000 steps is stack safe")
    void letError_recursiveLoopIsStackSafe() {
        assertEquals(LOOP, syncWait(errorLoop(0)));
    }
}
