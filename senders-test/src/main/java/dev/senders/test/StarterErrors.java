package dev.senders.test;

import dev.senders.spring.boot.SpawnErrorLogger;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.springframework.context.ApplicationContext;

/**
 * The errors the starter's scope error handler (its {@code SpawnErrorLogger} bean) is given, in
 * one application context. Loaded only when the starter is on the class path.
 */
final class StarterErrors {

    private static final boolean STARTER_PRESENT = present("dev.senders.spring.boot.SpawnErrorLogger");

    private StarterErrors() {}

    /**
     * Sends the errors the context's {@code SpawnErrorLogger} logs to {@code sink} until closed.
     *
     * @return the registration, or null when the starter or its logger bean is absent
     */
    static @Nullable AutoCloseable listen(ApplicationContext context, Consumer<Throwable> sink) {
        if (!STARTER_PRESENT) {
            return null;
        }
        return Registrar.listen(context, sink);
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
        static @Nullable AutoCloseable listen(ApplicationContext context, Consumer<Throwable> sink) {
            SpawnErrorLogger logger = context.getBeanProvider(SpawnErrorLogger.class).getIfUnique();
            return logger == null ? null : logger.listen(sink);
        }
    }
}
