package dev.senders.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The one way the library (and its adapters) obtain a {@link VarHandle} for a field of their own
 * classes: a class declares {@code private static final VarHandle STATE =
 * VarHandles.field(MethodHandles.lookup(), Op.class, "state", int.class);}, so the handle is a
 * constant the JIT folds, and only the class-initialisation step calls this method.
 *
 * <p>Not API: exported only to the library's own modules.
 */
public final class VarHandles {

    private VarHandles() {}

    /**
     * A {@code VarHandle} for the instance field {@code name} of type {@code type} declared by
     * {@code owner}, looked up with the caller's {@code lookup} (which must have access to the
     * field: pass {@code MethodHandles.lookup()} from {@code owner} or a nestmate of it).
     *
     * @param lookup the caller's lookup
     * @param owner the class that declares the field
     * @param name the field's name
     * @param type the field's declared type
     * @return the handle
     * @throws LinkageError if there is no such field or the lookup cannot access it: a mismatch
     *         between the declaration and the lookup in the library itself, thrown while the owner
     *         class is initialised (the message names the field)
     */
    public static VarHandle field(MethodHandles.Lookup lookup, Class<?> owner, String name, Class<?> type) {
        try {
            return lookup.findVarHandle(owner, name, type);
        } catch (ReflectiveOperationException e) {
            throw new LinkageError("cannot get a VarHandle for the field " + owner.getName() + "." + name
                    + " of type " + type.getName() + ": the field's declaration and its lookup do not match"
                    + " (rebuild the library; if it persists, this is a bug in it)", e);
        }
    }
}
