package dev.senders.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.Hooks;
import dev.senders.scope.ShutdownReport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Keeps docs/guide.md's "When shutdown hangs" output honest: the same program, the same report. */
class StuckShutdownTest {

    @AfterEach
    void off() {
        Hooks.disableDebugCapture();
    }

    @Test
    @DisplayName("the stuck shutdown's report names the audit that ignores stop and counts the unnamed rest as stopped")
    void reportNamesTheStuckAudit() {
        ShutdownReport r = StuckShutdown.run();
        assertFalse(r.joined());
        assertTrue(r.stopRequested());
        assertEquals(2, r.remainingAtGrace(), "the stuck audit and the unnamed work outlived the grace");
        assertEquals(1, r.remaining(), "the unnamed work honoured stop");
        assertEquals("audit-7", r.stillRunning().get(0).name().orElseThrow());
        assertEquals(0, r.unlisted());
        assertTrue(r.toString().startsWith("scope 'orders' did not join: 1 operation(s) still associated "), r::toString);
    }

    @Test
    @DisplayName("with debug capture on, the report shows where the stuck audit was spawned")
    void withCapture_reportShowsSpawnSite() {
        Hooks.enableDebugCapture();
        ShutdownReport r = StuckShutdown.run();
        assertTrue(r.toString().contains("\n      at dev.senders.examples.StuckShutdown.audit(StuckShutdown.java:"), r::toString);
    }
}
