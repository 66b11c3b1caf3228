package dev.senders.test;

import dev.senders.spring.boot.SpawnErrorListeners;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * The errors the starter's scope error handler passes on ({@code SpawnErrorListeners}), for one
 * scope name. Loaded only when the starter is on the class path.
 */
final class StarterErrors {

    private static final boolean STARTER_PRESENT = present("dev.senders.spring.boot.SpawnErrorListeners");

    private StarterErrors() {}

    /** Sends the errors logged for {@code scopeName} to {@code sink}; null when the starter is absent. */
    static @Nullable AutoCloseable listen(String scopeName, Consumer<Throwable> sink) {
        if (!STARTER_PRESENT) {
            return null;
        }
        return Registrar.listen(scopeName, sink);
    }

    private static boolean present(String className) {
        try {
            Class.forName(className, false, StarterErrors.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError absent) {
            return false;
        }
    }

    /** The only code that names the starter's types. */
    private static final class Registrar {
        static AutoCloseable listen(String scopeName, Consumer<Throwable> sink) {
            return SpawnErrorListeners.add((scope, error) -> {
                if (scopeName.equals(scope)) {
                    sink.accept(error);
                }
            });
        }
    }
}
