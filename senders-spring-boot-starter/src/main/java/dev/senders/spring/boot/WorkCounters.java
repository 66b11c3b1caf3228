package dev.senders.spring.boot;

import dev.senders.scope.SpawnListener;
import java.util.concurrent.atomic.LongAdder;
import org.jspecify.annotations.Nullable;

/**
 * How the work of one {@link WorkKind} went, as a decorator of that kind's token: it counts each
 * piece of work the scope accepted ({@code started}, when it is accepted) or refused
 * ({@code refused}), and how each ended ({@code completed}, {@code failed}, {@code stopped}) before
 * the scope is told, so the counts are up to date when a join completes. {@link LongAdder}s:
 * spawning threads contend on nothing but the scope's word. The counts of a kind are read one
 * after another, not atomically. A {@link SpawnListener}: it installs nothing and keeps no state
 * per piece of work, so a kind's token whose only decorator is this one lets unnamed Reactor and
 * RxJava work take the adapters' direct path, counted the same.
 */
final class WorkCounters extends SpawnListener {

    private final LongAdder started = new LongAdder();
    private final LongAdder completed = new LongAdder();
    private final LongAdder failed = new LongAdder();
    private final LongAdder stopped = new LongAdder();
    private final LongAdder refused = new LongAdder();

    /** Counts the work the scope accepted. */
    @Override
    protected void accepted(String scopeName, @Nullable String workName) {
        started.increment();                       // before the work is connected: it may end at once
    }

    @Override
    public void refused(String scopeName) {
        refused.increment();                       // the scope counts it too (refusedCount)
    }

    @Override
    public void end(Outcome outcome, @Nullable Throwable error) {
        switch (outcome) {
            case VALUE -> completed.increment();
            case ERROR -> failed.increment();
            case STOPPED -> stopped.increment();
        }
    }

    ScopeReport.Counts read() {
        return new ScopeReport.Counts(started.sum(), completed.sum(), failed.sum(), stopped.sum(), refused.sum());
    }
}
