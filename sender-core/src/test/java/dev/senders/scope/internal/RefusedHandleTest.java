package dev.senders.scope.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The adapters' refusal handle ({@link RefusedHandle}): always disposed, named by its constant. */
class RefusedHandleTest {

    @Test
    @DisplayName("a refusal handle is disposed from the start, stays disposed after dispose(), and prints its constant's name")
    void refusedHandle_alwaysDisposedAndNamed() {
        RefusedHandle refused = new RefusedHandle("Adapter.REFUSED") {};
        assertTrue(refused.isDisposed());
        refused.dispose();
        refused.dispose();
        assertTrue(refused.isDisposed());
        assertEquals("Adapter.REFUSED", refused.toString());
    }
}
