package dev.senders.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The one VarHandle lookup of the library ({@link VarHandles#field}). */
class VarHandlesTest {

    @SuppressWarnings("unused") // reached through the VarHandle
    private volatile int state;

    @Test
    @DisplayName("field gives a handle that reads and CASes the named field of the owner")
    void field_handleAccessesTheField() {
        VarHandle h = VarHandles.field(MethodHandles.lookup(), VarHandlesTest.class, "state", int.class);
        assertTrue(h.compareAndSet(this, 0, 7));
        assertEquals(7, (int) h.getVolatile(this));
        assertEquals(7, state);
    }

    @Test
    @DisplayName("a field that does not exist, or has another type, fails with a LinkageError naming the field and keeping the cause")
    void field_missingFieldFailsNamingIt() {
        LinkageError missing = assertThrows(LinkageError.class,
                () -> VarHandles.field(MethodHandles.lookup(), VarHandlesTest.class, "stat", int.class));
        assertTrue(missing.getMessage().contains("dev.senders.internal.VarHandlesTest.stat of type int"), missing.getMessage());
        assertInstanceOf(NoSuchFieldException.class, missing.getCause());

        LinkageError wrongType = assertThrows(LinkageError.class,
                () -> VarHandles.field(MethodHandles.lookup(), VarHandlesTest.class, "state", long.class));
        assertTrue(wrongType.getMessage().contains("VarHandlesTest.state of type long"), wrongType.getMessage());
    }

    @Test
    @DisplayName("a lookup without access to the field fails with a LinkageError naming the field")
    void field_inaccessibleFieldFailsNamingIt() {
        LinkageError e = assertThrows(LinkageError.class,
                () -> VarHandles.field(MethodHandles.publicLookup(), VarHandlesTest.class, "state", int.class));
        assertTrue(e.getMessage().contains("VarHandlesTest.state"), e.getMessage());
        assertInstanceOf(IllegalAccessException.class, e.getCause());
    }
}
