package dev.senders.stress.lincheck;

import dev.senders.scope.ScopeState;

/**
 * The sequential specification of a counting scope's count-and-state word (P3149R6
 * [exec.simple.counting]), for the Lincheck scenarios: the seven states, the count, and which
 * joins have completed. No concurrency, no atomics: the contract as a plain state machine.
 */
final class ScopeModel {

    ScopeState state = ScopeState.UNUSED;
    long count;
    private int waitingJoins;
    int joinsCompleted;

    boolean open() {
        return state == ScopeState.UNUSED || state == ScopeState.OPEN || state == ScopeState.OPEN_AND_JOINING;
    }

    /** {@code tryAssociate}: count + 1 while open; UNUSED becomes OPEN. */
    boolean associate() {
        if (!open()) {
            return false;
        }
        if (state == ScopeState.UNUSED) {
            state = ScopeState.OPEN;
        }
        count++;
        return true;
    }

    /** {@code dissociate}: count - 1; at zero in a joining state, JOINED, and every waiting join completes. */
    void dissociate() {
        count--;
        if (count == 0 && (state == ScopeState.OPEN_AND_JOINING || state == ScopeState.CLOSED_AND_JOINING)) {
            joined();
        }
    }

    private void joined() {
        state = ScopeState.JOINED;
        joinsCompleted += waitingJoins;
        waitingJoins = 0;
    }

    void close() {
        switch (state) {
            case UNUSED:
                state = ScopeState.UNUSED_AND_CLOSED;
                break;
            case OPEN:
                state = ScopeState.CLOSED;
                break;
            case OPEN_AND_JOINING:
                state = ScopeState.CLOSED_AND_JOINING;
                break;
            default:
                break; // already closed
        }
    }

    /** Starts a join: true if it completed at once (count zero, or already joined). */
    boolean join() {
        if (state == ScopeState.JOINED || count == 0) {
            joined();
            joinsCompleted++;
            return true;
        }
        if (state == ScopeState.OPEN) {
            state = ScopeState.OPEN_AND_JOINING;
        } else if (state == ScopeState.CLOSED) {
            state = ScopeState.CLOSED_AND_JOINING;
        }
        waitingJoins++;
        return false;
    }
}
