package dev.senders.scope.internal;

import dev.senders.scope.AsyncScopeToken;
import dev.senders.scope.SpawnListener;
import org.jspecify.annotations.Nullable;

/**
 * A token that decorates its work ({@code SpawnDecorator.token}) and can say whether that
 * decoration is a {@link SpawnListener}'s alone: then the adapters' direct path ({@link SpawnedWork})
 * spawns through it without its {@code wrap}, and tells the listener itself what the wrapper would:
 * {@code accepted} after the association, {@code end} before the scope is told. Everything else
 * (association, spawn env, error routing) goes through the token as usual. Not public API.
 *
 * <p>A class, not an interface: the direct path asks every token it spawns with whether it is one,
 * and a test against a class costs a constant-time look-up, where a failed test against an
 * interface scans the token class's interfaces on JDK 17.
 */
public abstract class ListenedToken implements AsyncScopeToken {

    /** For {@code DecoratingToken}. */
    protected ListenedToken() {
    }

    /**
     * The listener that is this token's whole decoration.
     *
     * @return the listener, or {@code null} if the token's decorator installs something or keeps
     *         state per piece of work (then its work takes the general path)
     */
    public abstract @Nullable SpawnListener listener();

    /**
     * What the listener is told as the scope's name.
     *
     * @return the scope name given to {@code SpawnDecorator.token}
     */
    public abstract String scopeName();

    /**
     * The token this one forwards to (whose {@code wrap} the direct path's test asks).
     *
     * @return the undecorated token
     */
    public abstract AsyncScopeToken undecorated();
}
