package dev.senders.testkit;

import dev.senders.Env;
import dev.senders.Sender;
import dev.senders.scope.AsyncScopeToken;
import dev.senders.scope.Scopes;

/**
 * A token that forwards to a scope's token and names the work spawned through it
 * ({@code Scopes.named}), so that the scope lists it by name in {@code outstanding()} and shutdown
 * reports: how a test names work spawned with an adapter's {@code spawn(source, token)}, which
 * takes no name. Work spawned through it takes the adapters' general path.
 */
public final class NamingToken implements AsyncScopeToken {
    private final AsyncScopeToken token;
    private final String name;

    public NamingToken(AsyncScopeToken token, String name) {
        this.token = token;
        this.name = name;
    }

    @Override
    public boolean tryAssociate() {
        return token.tryAssociate();
    }

    @Override
    public void dissociate() {
        token.dissociate();
    }

    @Override
    public <T> Sender<T> wrap(Sender<T> sender) {
        return token.wrap(Scopes.named(sender, name));
    }

    @Override
    public <T> Sender<T> wrap(Sender<T> sender, Env env) {
        return token.wrap(Scopes.named(sender, name), env);
    }

    @Override
    public Env spawnEnv() {
        return token.spawnEnv();
    }

    @Override
    public void onSpawnError(Throwable error, Env env) {
        token.onSpawnError(error, env);
    }
}
