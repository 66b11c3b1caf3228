package dev.senders.scope;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.Hooks;
import dev.senders.Senders;
import dev.senders.testkit.ManualSender;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("Scopes.joinOrStop: close, join for a grace period, request stop, join again, report")
class JoinOrStopTest {

    @AfterEach
    void reset() {
        Hooks.disableDebugCapture();
        Thread.interrupted();
    }

    @Test
    @DisplayName("work that ends within the grace period: joined, no stop requested")
    void joinsWithinGrace() {
        CountingScope scope = new CountingScope("quick");
        Scopes.spawn(Senders.just(), scope.getToken());
        ShutdownReport r = Scopes.joinOrStop(scope, Duration.ofSeconds(5), Duration.ofSeconds(5));
        assertTrue(r.joined());
        assertFalse(r.stopRequested());
        assertFalse(scope.stopToken().stopRequested());
        assertEquals(ScopeState.JOINED, r.state());
        assertEquals(0, r.remaining());
        assertTrue(r.toString().startsWith("scope 'quick' joined "), r.toString());
        assertTrue(r.elapsed().compareTo(Duration.ofSeconds(5)) < 0);
    }

    @Test
    @DisplayName("a deadline passes and the helper stops the rest: work that honours stop ends and the scope joins")
    void gracePasses_stopEndsTheRest() {
        CountingScope scope = new CountingScope("orders");
        ManualSender<Void> stoppable = new ManualSender<>(true);
        Scopes.spawn(Scopes.named(stoppable, "poller"), scope.getToken());
        ShutdownReport r = Scopes.joinOrStop(scope, Duration.ofMillis(50), Duration.ofSeconds(5));
        assertTrue(r.joined());
        assertTrue(r.stopRequested());
        assertEquals(1, stoppable.stopsSeen());
        assertEquals(1, r.remainingAtGrace());
        assertTrue(r.elapsed().compareTo(Duration.ofMillis(50)) >= 0);
        assertTrue(r.toString().contains("after requestStop(): the 50 ms grace had passed with 1 operation(s) running"),
                r.toString());
    }

    @Test
    @DisplayName("a stuck join's report names the stuck work and counts the unnamed rest; the helper returns at its deadline")
    void stuckJoin_reportNamesStuckWork() {
        CountingScope scope = new CountingScope("orders");
        ManualSender<Void> stuck = new ManualSender<>(false);   // sees the stop request, never completes
        ManualSender<Void> anonymous = new ManualSender<>();
        Scopes.spawn(Scopes.named(stuck, "audit-7"), scope.getToken());
        Scopes.spawn(anonymous, scope.getToken());
        long t0 = System.nanoTime();
        ShutdownReport r = Scopes.joinOrStop(scope, Duration.ofMillis(50), Duration.ofMillis(50));
        long took = System.nanoTime() - t0;
        assertFalse(r.joined());
        assertTrue(r.stopRequested());
        assertEquals(1, stuck.stopsSeen());
        assertEquals(2, r.remaining());
        assertEquals(1, r.unlisted());
        assertEquals(ScopeState.CLOSED_AND_JOINING, r.state());
        assertEquals("audit-7", r.stillRunning().get(0).name().orElseThrow());
        assertTrue(took < 5_000_000_000L, "returned at its deadlines, not when the work ended");
        String s = r.toString();
        assertTrue(s.startsWith("scope 'orders' did not join: 2 operation(s) still associated "), s);
        assertTrue(s.contains("(grace 50 ms, then 50 ms after requestStop()), state CLOSED_AND_JOINING"), s);
        assertTrue(s.contains("\n  audit-7 (spawn, running for "), s);
        assertTrue(s.contains("\n  1 unnamed operation(s) not listed"), s);
        stuck.complete(null);
        anonymous.complete(null);
        assertEquals(ScopeState.JOINED, scope.state(), "the abandoned waits did not break the join");
    }

    @Test
    @DisplayName("with debug capture on, a stuck join's report shows where the stuck work was spawned")
    void stuckJoin_withCapture_reportHasSpawnSite() {
        Hooks.enableDebugCapture();
        CountingScope scope = new CountingScope("captured");
        ManualSender<Void> stuck = new ManualSender<>();
        Scopes.spawn(stuck, scope.getToken());
        ShutdownReport r = Scopes.joinOrStop(scope, Duration.ofMillis(20), Duration.ofMillis(20));
        assertFalse(r.joined());
        assertEquals(0, r.unlisted());
        List<StackTraceElement> site = r.stillRunning().get(0).spawnSite();
        assertEquals("stuckJoin_withCapture_reportHasSpawnSite", site.get(0).getMethodName());
        assertTrue(r.toString().contains("\n  (unnamed) (spawn, running for "), r.toString());
        // the frame as the JDK prints it (on the module path with the module's name in front)
        assertTrue(r.toString().matches("(?s).*\n      at (\\S+/)?" + java.util.regex.Pattern.quote(JoinOrStopTest.class.getName()
                + ".stuckJoin_withCapture_reportHasSpawnSite(") + ".*"), r.toString());
        stuck.complete(null);
    }

    @Test
    @DisplayName("an interrupt cuts the shutdown short: stop requested at once, report returned, interrupt status set")
    void interrupt_cutsShort() {
        CountingScope scope = new CountingScope("interrupted");
        ManualSender<Void> stuck = new ManualSender<>(false);
        Scopes.spawn(stuck, scope.getToken());
        Thread.currentThread().interrupt();
        ShutdownReport r = Scopes.joinOrStop(scope, Duration.ofSeconds(30), Duration.ofSeconds(30));
        assertTrue(Thread.interrupted(), "the interrupt status is set again");
        assertFalse(r.joined());
        assertTrue(r.interrupted());
        assertTrue(r.stopRequested());
        assertEquals(1, stuck.stopsSeen());
        assertTrue(r.elapsed().compareTo(Duration.ofSeconds(30)) < 0);
        assertTrue(r.toString().contains("(interrupted; stop requested)"), r.toString());
        stuck.complete(null);
    }
}
