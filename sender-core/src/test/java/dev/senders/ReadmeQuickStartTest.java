package dev.senders;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.scope.CountingScope;
import dev.senders.scope.ScopeState;
import dev.senders.scope.Scopes;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The README's quick start, verbatim, run with System.out captured. */
class ReadmeQuickStartTest {

    // ---- README.md "Quick start" (class body verbatim)
    public static class QuickStart {
        public static void main(String[] args) {
            ExecutorService pool = Executors.newFixedThreadPool(2);
            Scheduler io = Schedulers.fromExecutor(pool);
            CountingScope scope = new CountingScope(error -> System.err.println("failed: " + error));

            for (int i = 0; i < 10; i++) {
                int job = i;
                Sender<String> work = Senders.schedule(io).then(v -> "job " + job + " on " + Thread.currentThread().getName());
                Scopes.spawn(work.then(line -> { System.out.println(line); return null; }), scope.getToken());
            }

            scope.close();                   // no new work from here on: spawn now returns false
            Senders.syncWait(scope.join());  // returns once all ten jobs have ended
            pool.shutdown();

            // not in the README: what the test checks afterwards
            LAST_STATE = scope.state();
            SPAWN_AFTER_CLOSE = Scopes.spawn(Senders.just(), scope.getToken());
        }

        static volatile ScopeState LAST_STATE;
        static volatile boolean SPAWN_AFTER_CLOSE = true;
    }
    // ----

    @Test
    @DisplayName("README quick start: all ten spawned jobs ran before join returned; the scope is joined and refuses new work")
    void quickStart_allSpawnedWorkEndsBeforeJoinReturns() {
        PrintStream out = System.out;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            QuickStart.main(new String[0]);
        } finally {
            System.setOut(out);
        }
        String printed = captured.toString(StandardCharsets.UTF_8);
        long lines = printed.lines().filter(l -> l.startsWith("job ")).count();
        assertEquals(10, lines, printed);
        for (int i = 0; i < 10; i++) {
            assertTrue(printed.contains("job " + i + " on "), "job " + i + " missing:\n" + printed);
        }
        assertEquals(ScopeState.JOINED, QuickStart.LAST_STATE);
        assertFalse(QuickStart.SPAWN_AFTER_CLOSE);
    }
}
