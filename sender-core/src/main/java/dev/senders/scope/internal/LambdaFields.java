package dev.senders.scope.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Reads the callbacks a library's lambda subscriber holds (Reactor's {@code LambdaSubscriber},
 * RxJava's {@code LambdaObserver}, ...: package-private fields of final classes) for the
 * fire-and-forget hooks; not public API. The fields are looked up once, with
 * {@link MethodHandles#privateLookupIn}: on the class path that always works; on the module path
 * it works only if the library's module opens the package, and otherwise {@link #accessible()} is
 * {@code false} and every read answers {@code null} (the hooks then locate the subscribe site by
 * a stack walk, and leave errors where the library sends them).
 */
public final class LambdaFields {

    private final VarHandle @Nullable [] callbacks;
    private final @Nullable VarHandle error;
    private final @Nullable String defaults;

    /**
     * @param caller the adapter's lookup (its module reads the library's)
     * @param type the lambda subscriber class
     * @param errorField the field holding the error callback, or {@code null} to treat every
     *     instance as having one
     * @param defaults the package prefix of the library's stand-in callbacks (RxJava's
     *     {@code Functions.emptyConsumer()}, ...), which {@link #firstCallback} skips; {@code null}
     *     if absent fields are {@code null}
     * @param callbackFields the fields holding callbacks, in the order {@link #firstCallback} asks them
     */
    public LambdaFields(MethodHandles.Lookup caller, Class<?> type, @Nullable String errorField, @Nullable String defaults,
            String... callbackFields) {
        this.defaults = defaults;
        VarHandle[] cs;
        VarHandle e;
        try {
            MethodHandles.Lookup l = MethodHandles.privateLookupIn(type, caller);
            List<VarHandle> list = new ArrayList<>();
            for (String f : callbackFields) {
                list.add(handle(l, type, f));
            }
            cs = list.toArray(new VarHandle[0]);
            e = errorField == null ? null : handle(l, type, errorField);
        } catch (IllegalAccessException | NoSuchFieldException | RuntimeException inaccessible) {
            cs = null;
            e = null;
        }
        this.callbacks = cs;
        this.error = e;
    }

    private static VarHandle handle(MethodHandles.Lookup l, Class<?> type, String name)
            throws NoSuchFieldException, IllegalAccessException {
        for (java.lang.reflect.Field f : type.getDeclaredFields()) {
            if (f.getName().equals(name)) {
                return l.findVarHandle(type, name, f.getType());
            }
        }
        throw new NoSuchFieldException(type.getName() + "." + name);
    }

    /**
     * Whether the fields could be read.
     *
     * @return {@code false} if the library's module does not open them
     */
    public boolean accessible() {
        return callbacks != null;
    }

    /**
     * The first callback of {@code subscriber} the application gave (not null, not a stand-in), or
     * {@code null} (none, or not readable).
     *
     * @param subscriber an instance of the type
     * @return the callback, or {@code null}
     */
    public @Nullable Object firstCallback(Object subscriber) {
        VarHandle[] cs = callbacks;
        if (cs != null) {
            for (VarHandle h : cs) {
                Object c = h.get(subscriber);
                if (c != null && (defaults == null || !c.getClass().getName().startsWith(defaults))) {
                    return c;
                }
            }
        }
        return null;
    }

    /**
     * Whether {@code subscriber} was given an error callback; {@code true} when that cannot be read
     * (so the error is left where the library sends it).
     *
     * @param subscriber an instance of the type
     * @return whether an error callback is present
     */
    public boolean hasErrorCallback(Object subscriber) {
        VarHandle e = error;
        return e == null || e.get(subscriber) != null;
    }
}
