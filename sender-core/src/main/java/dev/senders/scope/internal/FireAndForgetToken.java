package dev.senders.scope.internal;

import dev.senders.Env;
import dev.senders.InplaceStopSource;
import dev.senders.Query;
import dev.senders.internal.signal.StopNode;
import dev.senders.scope.AsyncScopeToken;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * The token of the fire-and-forget subscriptions one {@code FireAndForgetTracker} found, one per
 * kind of association: <em>tracked</em> ones, associated with the tracker's scope, and
 * <em>untracked</em> ones ({@code REPORT}, or {@code TRACK} once the scope was closed), associated
 * with nothing. Each token has a stop source of its own, which is also the list of its running
 * subscriptions: every {@link FireAndForgetWork} started with it links itself into the source as
 * its stop registration and unlinks itself when it ends, so listing costs the subscription
 * nothing beyond that registration. The tracked token's source is stopped when the scope's is
 * ({@link #stop()}, from the tracker's one registration on the scope's stop token); the untracked
 * token's never is. Thread-safe; not public API.
 */
public final class FireAndForgetToken implements AsyncScopeToken {

    private final @Nullable AsyncScopeToken scope;
    private final InplaceStopSource source = new InplaceStopSource();
    private final Env env;

    /**
     * @param scope the scope's token, for the tracked token; {@code null} for the untracked one
     */
    public FireAndForgetToken(@Nullable AsyncScopeToken scope) {
        this.scope = scope;
        this.env = (scope == null ? Env.empty() : scope.spawnEnv()).with(Query.STOP_TOKEN, source.token());
    }

    /**
     * Whether {@code token} is a tracked token.
     *
     * @param token a token {@code FireAndForgetTracker.associate()} returned
     * @return {@code true} if the work started with it is associated with the scope
     */
    public static boolean tracked(AsyncScopeToken token) {
        return ((FireAndForgetToken) token).scope != null;
    }

    /**
     * Whether this token's subscriptions are associated with the scope.
     *
     * @return {@code true} for the tracked token
     */
    public boolean tracked() {
        return scope != null;
    }

    /** The association is made by the tracker when a subscription is found: never associates again. */
    @Override
    public boolean tryAssociate() {
        return false;
    }

    /** A subscription ended: releases its association with the scope (tracked token). */
    @Override
    public void dissociate() {
        if (scope != null) {
            scope.dissociate();
        }
    }

    /** The scope's spawn env (tracked) or the empty env, with this token's stop source's token. */
    @Override
    public Env spawnEnv() {
        return env;
    }

    /** An error nobody consumes: the scope's (tracked), else the default. */
    @Override
    public void onSpawnError(Throwable error, Env env) {
        if (scope != null) {
            scope.onSpawnError(error, env);
        } else {
            AsyncScopeToken.super.onSpawnError(error, env);
        }
    }

    /**
     * Passes each running subscription started with this token to {@code action} (a snapshot: see
     * {@link StopNode.Host#forEachRegistered}); none once {@link #stop()} ran.
     *
     * @param action what to do with each
     */
    public void forEachRunning(Consumer<? super FireAndForgetWork> action) {
        ((StopNode.Host) source.token()).forEachRegistered(n -> {
            if (n instanceof FireAndForgetWork) {
                action.accept((FireAndForgetWork) n);
            }
        });
    }

    /** Stops every running subscription started with this token, and every one started later. */
    public void stop() {
        source.requestStop();
    }

    @Override
    public String toString() {
        return "FireAndForgetToken[" + (scope == null ? "untracked" : "tracked") + "]";
    }
}
