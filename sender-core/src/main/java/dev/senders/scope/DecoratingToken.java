package dev.senders.scope;

import dev.senders.Env;
import dev.senders.Sender;
import dev.senders.scope.internal.ListenedToken;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What {@link SpawnDecorator#token} returns: a token that forwards everything to the scope's token
 * (association, spawn env, error routing: same stop, same counting, same handler) and whose
 * {@code wrap} decorates the work first ({@link DecoratedSender}), keeping the work's name
 * outermost so that the scope still lists it; a refused {@code tryAssociate} is told to the
 * decorator ({@link SpawnDecorator#refused}). {@code wrap} itself decorates nothing (a spawn path
 * may wrap a probe to learn whether the token adds anything): the decorator is asked when the
 * wrapped work is connected, for {@code spawn} and {@code spawnFuture} on the spawning thread,
 * after the scope accepted the work. When the decorator is a {@link SpawnListener}, the token
 * says so ({@link ListenedToken}): the adapters' direct path then spawns unnamed work without
 * {@code wrap} and tells the listener itself.
 */
final class DecoratingToken extends ListenedToken {

    private final AsyncScopeToken token;
    private final String scopeName;
    private final SpawnDecorator decorator;

    DecoratingToken(AsyncScopeToken token, String scopeName, SpawnDecorator decorator) {
        this.token = token;
        this.scopeName = scopeName;
        this.decorator = decorator;
    }

    @Override
    public boolean tryAssociate() {
        if (token.tryAssociate()) {
            return true;
        }
        decorator.refused(scopeName);
        return false;
    }

    @Override
    public void dissociate() {
        token.dissociate();
    }

    @Override
    public <T> Sender<T> wrap(Sender<T> sender) {
        return token.wrap(decorated(sender));
    }

    @Override
    public <T> Sender<T> wrap(Sender<T> sender, Env env) {
        return token.wrap(decorated(sender), env);
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
    public @Nullable SpawnListener listener() {
        return decorator instanceof SpawnListener ? (SpawnListener) decorator : null;
    }

    @Override
    public String scopeName() {
        return scopeName;
    }

    @Override
    public AsyncScopeToken undecorated() {
        return token;
    }

    private <T> Sender<T> decorated(Sender<T> sender) {
        Objects.requireNonNull(sender, "sender");
        if (sender instanceof NamedSender) {
            NamedSender<T> named = (NamedSender<T>) sender;
            return new NamedSender<>(new DecoratedSender<>(named.source, decorator, scopeName, named.name), named.name);
        }
        return new DecoratedSender<>(sender, decorator, scopeName, null);
    }

    @Override
    public String toString() {
        return "DecoratingToken[" + scopeName + ", " + decorator + ", " + token + "]";
    }
}
