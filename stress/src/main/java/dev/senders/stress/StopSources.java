package dev.senders.stress;

import dev.senders.InplaceStopSource;
import dev.senders.scope.CountingScope;
import java.lang.reflect.Field;

/**
 * Reads what a test cannot see through the API: the top of a {@link CountingScope}'s stop source's
 * list of registrations (null when nothing is linked). Read by arbiters only, once every actor
 * returned.
 */
final class StopSources {

    private StopSources() {}

    /** The head of the scope's stop source: null if no registration is linked (and stop was not requested). */
    static Object head(CountingScope scope) {
        Object core = read(scope, "core");
        InplaceStopSource source = (InplaceStopSource) read(core, "stopSource");
        return read(source, "head");
    }

    private static Object read(Object o, String name) {
        for (Class<?> c = o.getClass(); c != null; c = c.getSuperclass()) {
            try {
                Field f = c.getDeclaredField(name);
                f.setAccessible(true);
                return f.get(o);
            } catch (NoSuchFieldException e) {
                // declared further up
            } catch (ReflectiveOperationException | RuntimeException e) {
                throw new IllegalStateException("cannot read " + c.getName() + "." + name + ": " + e, e);
            }
        }
        throw new IllegalStateException(o.getClass().getName() + " has no field " + name);
    }
}
