package dev.senders.spring.boot;

import dev.senders.Env;
import dev.senders.Sender;
import dev.senders.scope.AsyncScopeToken;
import dev.senders.scope.SpawnDecorator;
import java.util.concurrent.atomic.LongAdder;
import org.jspecify.annotations.Nullable;

/**
 * How the work of one {@link WorkKind} went: a token that counts each association it makes
 * ({@code started}) or is refused ({@code refused}), and a decoration that counts how each piece
 * of work ended ({@code completed}, {@code failed}, {@code stopped}) before the scope is told, so
 * the counts are up to date when a join completes. {@link LongAdder}s: spawning threads contend
 * on nothing but the scope's word. The counts of a kind are read one after another, not
 * atomically.
 */
final class WorkCounters implements SpawnDecorator, SpawnDecorator.Decoration {

    private final LongAdder started = new LongAdder();
    private final LongAdder completed = new LongAdder();
    private final LongAdder failed = new LongAdder();
    private final LongAdder stopped = new LongAdder();
    private final LongAdder refused = new LongAdder();

    /** The same decoration for every piece of work: it keeps no per-work state. */
    @Override
    public Decoration decorate(String scopeName, @Nullable String workName) {
        return this;
    }

    @Override
    public Installed install() {
        return Installed.NOTHING;
    }

    @Override
    public void end(Outcome outcome, @Nullable Throwable error) {
        switch (outcome) {
            case VALUE -> completed.increment();
            case ERROR -> failed.increment();
            case STOPPED -> stopped.increment();
        }
    }

    /** {@code decorated} (a token whose work these counters decorate), counting its associations. */
    AsyncScopeToken token(AsyncScopeToken decorated) {
        return new Counting(decorated);
    }

    ScopeReport.Counts read() {
        return new ScopeReport.Counts(started.sum(), completed.sum(), failed.sum(), stopped.sum(), refused.sum());
    }

    /** Forwards everything to the decorated token; counts what {@code tryAssociate} answers. */
    private final class Counting implements AsyncScopeToken {

        private final AsyncScopeToken token;

        Counting(AsyncScopeToken token) {
            this.token = token;
        }

        @Override
        public boolean tryAssociate() {
            if (token.tryAssociate()) {
                started.increment();               // before the work is connected: it may end at once
                return true;
            }
            refused.increment();                   // the scope counts it too (refusedCount)
            return false;
        }

        @Override
        public void dissociate() {
            token.dissociate();
        }

        @Override
        public <T> Sender<T> wrap(Sender<T> sender) {
            return token.wrap(sender);
        }

        @Override
        public <T> Sender<T> wrap(Sender<T> sender, Env env) {
            return token.wrap(sender, env);
        }

        @Override
        public Env spawnEnv() {
            return token.spawnEnv();
        }

        @Override
        public void onSpawnError(Throwable error, Env env) {
            token.onSpawnError(error, env);
        }

        @Override
        public String toString() {
            return "counted(" + token + ")";
        }
    }
}
