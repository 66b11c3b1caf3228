package dev.senders.spring.boot;

import dev.senders.scope.ScopeState;

/**
 * A point-in-time view of the application scope, as the {@code senders} endpoint shows it and the
 * shutdown log prints it. The counters are read one after another, not atomically: while work
 * runs, {@code spawned = active + completed + failed + stopped} holds only once the scope is quiet.
 *
 * @param name      the scope's name ({@code senders.scope.name})
 * @param state     the scope's state
 * @param active    work associated with the scope and not yet finished (the scope's count)
 * @param spawned   work accepted through the starter's beans and token
 * @param completed of those, work that ended with a value
 * @param failed    work whose error went to the scope's handler (the scope's error count: all work
 *                  spawned into the scope, however it was spawned)
 * @param stopped   work accepted through the starter that ended stopped (its own cancel or the
 *                  scope's stop request at shutdown)
 * @param refused   spawns through the starter that the scope refused because it was closed
 */
public record ScopeReport(String name, ScopeState state, long active, long spawned, long completed,
        long failed, long stopped, long refused) {

    /**
     * Whether the scope still accepts work.
     *
     * @return {@code state().isOpen()}
     */
    public boolean open() {
        return state.isOpen();
    }

    /** One line for logs: {@code scope 'application' CLOSED_AND_JOINING: 3 active, 120 spawned, ...}. */
    @Override
    public String toString() {
        return "scope '" + name + "' " + state + ": " + active + " active, " + spawned + " spawned, " + completed
                + " completed, " + failed + " failed, " + stopped + " stopped, " + refused + " refused";
    }
}
