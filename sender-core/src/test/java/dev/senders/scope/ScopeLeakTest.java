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

@DisplayName("P3149R6 [exec.simple.counting.dtor] a dropped scope that still holds work is reported")
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
    @DisplayName("a scope that holds no work is not a leak, open or closed, joined or not: nothing was lost")
    void scopeHoldingNoWork_notReported() {
        WeakReference<?>[] refs = new WeakReference<?>[2];
        String[] ids = dropUsedHoldingNoWork(refs);
        assertTrue(Gc.awaitCondition(() -> refs[0].get() == null && refs[1].get() == null));
        // a scope dropped afterwards with work is reported; by then these would have been too
        awaitReport(dropWithWork());
        for (String id : ids) {
            assertTrue(reports.stream().noneMatch(r -> r.getMessage().startsWith(id + " ")), id);
        }
    }

    private static String[] dropUsedHoldingNoWork(WeakReference<?>[] refs) {
        SimpleCountingScope open = new SimpleCountingScope();
        Scopes.spawn(Senders.just(), open.getToken());          // OPEN, count 0, never closed
        SimpleCountingScope closed = new SimpleCountingScope();
        Scopes.spawn(Senders.just(), closed.getToken());
        closed.close();                                          // CLOSED, count 0, never joined
        assertEquals(ScopeState.OPEN, open.state());
        assertEquals(ScopeState.CLOSED, closed.state());
        refs[0] = new WeakReference<>(open);
        refs[1] = new WeakReference<>(closed);
        return new String[] {id(open), id(closed)};
    }

    @Test
    @DisplayName("unused, unused-and-closed and joined scopes may be dropped silently")
    void safeStates_notReported() {
        WeakReference<?>[] refs = new WeakReference<?>[3];
        String[] ids = dropSafe(refs);
        assertTrue(Gc.awaitCondition(() -> refs[0].get() == null && refs[1].get() == null && refs[2].get() == null));
        // a leaky scope dropped afterwards is reported; by then the safe ones would have been too
        awaitReport(dropWithWork());
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

    @Test
    @DisplayName("a leak report names the scope and lists its named outstanding work, counting the unnamed rest")
    void leakReport_namesScopeAndListsNamedWork() {
        dropNamedWithWork("orders");
        ScopeLeakedException r = awaitReport("orders");
        assertEquals("orders", r.scopeName());
        assertEquals(2, r.count());
        assertEquals(1, r.outstanding().size());
        assertEquals("audit-7", r.outstanding().get(0).name().orElseThrow());
        assertTrue(r.getMessage().contains("Still running:\n  audit-7 (spawn, running for "), r.getMessage());
        assertTrue(r.getMessage().contains("1 unnamed operation(s) not listed"), r.getMessage());
        assertEquals(null, r.getCause(), "no creation site without debug capture");
    }

    @Test
    @DisplayName("a leak report of a scope holding thousands of operations stays a few lines long and keeps the whole list")
    void leakReport_ofThousandsOfOperations_isBounded() {
        dropWithManyNamed("crowded-leak", 3_000);
        ScopeLeakedException r = awaitReport("crowded-leak");
        assertEquals(3_000, r.count());
        assertEquals(3_000, r.outstanding().size(), "the programmatic list is whole");
        long lines = r.getMessage().lines().count();
        assertTrue(lines <= OutstandingSummary.DEFAULT_LIMIT + 3, lines + " lines:\n" + r.getMessage());
        assertTrue(r.getMessage().contains("not shown"), r.getMessage());
    }

    private static void dropWithManyNamed(String name, int n) {
        CountingScope scope = new CountingScope(name);
        for (int i = 0; i < n; i++) {
            Scopes.spawn(Scopes.named(new ManualSender<Void>(), "order-" + (i % 3)), scope.getToken());
        }
    }

    private static void dropNamedWithWork(String name) {
        CountingScope scope = new CountingScope(name);
        Scopes.spawn(Scopes.named(new ManualSender<Void>(), "audit-7"), scope.getToken());
        Scopes.spawn(new ManualSender<Void>(), scope.getToken());
    }

    @Test
    @DisplayName("with debug capture on, a leak report says where the scope was created and where its work was spawned")
    void leakReport_withCapture_hasCreationAndSpawnSites() {
        Hooks.enableDebugCapture();
        try {
            dropNamedWithWork("capture-orders");
        } finally {
            Hooks.disableDebugCapture();
        }
        ScopeLeakedException r = awaitReport("capture-orders");
        assertTrue(r.getCause() instanceof ScopeTrace, () -> "cause: " + r.getCause());
        assertEquals("scope 'capture-orders' was created here", r.getCause().getMessage());
        assertEquals("dropNamedWithWork", r.getCause().getStackTrace()[0].getMethodName(),
                "the first frame of the creation site is the code that created the scope");
        assertEquals(2, r.outstanding().size(), "under capture every piece of work is listed");
        for (OutstandingWork w : r.outstanding()) {
            assertEquals("dropNamedWithWork", w.spawnSite().get(0).getMethodName(), w.toString());
        }
    }

    @Test
    @DisplayName("a scope whose handle was dropped before its first use is reported when its kept token is then used and dropped")
    void handleDroppedBeforeFirstUse_tokenUsedLater_reported() {
        String[] id = new String[1];
        AsyncScopeToken token = tokenOfDroppedScope(id);
        System.gc(); // the unused scope's handle is kept by its token until the first association
        Scopes.spawn(new ManualSender<Void>(), token);
        token = null;
        ScopeLeakedException r = awaitReport(id[0]);
        assertEquals(ScopeState.OPEN, r.state());
        assertEquals(1, r.count());
    }

    private static AsyncScopeToken tokenOfDroppedScope(String[] id) {
        CountingScope scope = new CountingScope();
        id[0] = id(scope);
        return scope.getToken();
    }
}
