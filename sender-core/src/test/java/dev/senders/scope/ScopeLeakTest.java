package dev.senders.scope;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.Hooks;
import dev.senders.Senders;
import dev.senders.testkit.ManualSender;
import java.lang.ref.WeakReference;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("P3149R6 [exec.simple.counting.dtor] a dropped scope that still needed a join is reported")
class ScopeLeakTest {

    private final List<ScopeLeakedException> reports = new CopyOnWriteArrayList<>();

    @BeforeEach
    void install() {
        Hooks.setOnErrorDropped(e -> {
            if (e instanceof ScopeLeakedException) {
                reports.add((ScopeLeakedException) e);
            }
        });
    }

    @AfterEach
    void reset() {
        Hooks.resetOnErrorDropped();
    }

    private static String id(Object scope) {
        String s = scope.toString();
        return s.substring(0, s.indexOf('['));
    }

    private ScopeLeakedException awaitReport(String id) {
        assertTrue(Gc.awaitCondition(() -> reports.stream().anyMatch(r -> r.getMessage().startsWith(id + " "))),
                () -> "no leak report for " + id + " (reports: " + reports + ")");
        return reports.stream().filter(r -> r.getMessage().startsWith(id + " ")).findFirst().orElseThrow();
    }

    @Test
    @DisplayName("a scope dropped while work is still associated is reported with its state and count")
    void droppedWithAssociatedWork_reported() {
        String id = dropWithWork();
        ScopeLeakedException r = awaitReport(id);
        assertEquals(ScopeState.OPEN, r.state());
        assertEquals(2, r.count());
    }

    private static String dropWithWork() {
        CountingScope scope = new CountingScope();
        Scopes.spawn(new ManualSender<Void>(), scope.getToken());
        Scopes.spawn(new ManualSender<Void>(), scope.getToken());
        return id(scope);
    }

    @Test
    @DisplayName("a scope used and closed but never joined is reported")
    void usedNeverJoined_reported() {
        String id = dropUsedNotJoined();
        ScopeLeakedException r = awaitReport(id);
        assertEquals(ScopeState.CLOSED, r.state());
        assertEquals(0, r.count());
    }

    private static String dropUsedNotJoined() {
        SimpleCountingScope scope = new SimpleCountingScope();
        Scopes.spawn(Senders.just(), scope.getToken());
        scope.close();
        return id(scope);
    }

    @Test
    @DisplayName("unused, unused-and-closed and joined scopes may be dropped silently")
    void safeStates_notReported() {
        WeakReference<?>[] refs = new WeakReference<?>[3];
        String[] ids = dropSafe(refs);
        assertTrue(Gc.awaitCondition(() -> refs[0].get() == null && refs[1].get() == null && refs[2].get() == null));
        // a leaky scope dropped afterwards is reported; by then the safe ones would have been too
        awaitReport(dropUsedNotJoined());
        for (String id : ids) {
            assertTrue(reports.stream().noneMatch(r -> r.getMessage().startsWith(id + " ")), id);
        }
    }

    private static String[] dropSafe(WeakReference<?>[] refs) {
        SimpleCountingScope unused = new SimpleCountingScope();
        SimpleCountingScope closed = new SimpleCountingScope();
        closed.close();
        SimpleCountingScope joined = new SimpleCountingScope();
        Scopes.spawn(Senders.just(), joined.getToken());
        Senders.syncWait(joined.join());
        refs[0] = new WeakReference<>(unused);
        refs[1] = new WeakReference<>(closed);
        refs[2] = new WeakReference<>(joined);
        return new String[] {id(unused), id(closed), id(joined)};
    }
}
