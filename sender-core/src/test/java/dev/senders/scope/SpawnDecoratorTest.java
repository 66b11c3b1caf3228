package dev.senders.scope;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.Sender;
import dev.senders.Senders;
import dev.senders.testkit.ManualSender;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("SpawnDecorator: one decorator SPI for spawned work, applied through a token")
class SpawnDecoratorTest {

    /** Records every step of every piece of work it decorates, on which thread. */
    static final class Recording implements SpawnDecorator {
        final String id;
        final List<String> log;
        final ThreadLocal<String> installed = new ThreadLocal<>();

        Recording(String id, List<String> log) {
            this.id = id;
            this.log = log;
        }

        @Override
        public void refused(String scopeName) {
            log.add(id + " refused " + scopeName);
        }

        @Override
        public Decoration decorate(String scopeName, @Nullable String workName) {
            log.add(id + " decorate " + scopeName + "/" + workName);
            return new Decoration() {
                @Override
                public Installed install() {
                    String before = installed.get();
                    installed.set(id);
                    log.add(id + " install");
                    return () -> {
                        log.add(id + " uninstall");
                        if (before == null) {
                            installed.remove();
                        } else {
                            installed.set(before);
                        }
                    };
                }

                @Override
                public void end(Outcome outcome, @Nullable Throwable error) {
                    log.add(id + " end " + outcome.tag() + (error == null ? "" : " " + error.getMessage()));
                }
            };
        }
    }

    @Test
    @DisplayName("decorated work: decorate at spawn, install around connect, start and completion, end before the scope is told")
    void lifecycle_endsBeforeTheScopeIsTold() {
        List<String> log = new CopyOnWriteArrayList<>();
        Recording d = new Recording("a", log);
        CountingScope scope = new CountingScope("jobs", e -> log.add("handler " + e.getMessage()));
        AsyncScopeToken token = d.token(scope.getToken(), "jobs");
        ManualSender<Void> work = new ManualSender<>();
        assertTrue(Scopes.spawn(Scopes.named(work, "audit"), token));
        assertEquals(List.of("a decorate jobs/audit", "a install", "a uninstall", "a install", "a uninstall"), log);
        assertEquals(List.of("audit"), scope.outstanding().stream().map(w -> w.name().orElseThrow()).toList(),
                "the scope still lists the work under its name");
        log.clear();
        work.fail(new IllegalStateException("boom"));
        assertEquals(List.of("a end error boom", "a install", "handler boom", "a uninstall"), log,
                "ended first, then the error reaches the scope's handler with the decoration installed");
        assertEquals(1, scope.errorCount(), "the scope counts the error of decorated work");
        assertEquals(0, scope.count());
        scope.close();
        Senders.syncWait(scope.join());
    }

    @Test
    @DisplayName("a refused spawn is never decorated: the decorator is told the refusal")
    void refused_isNotDecorated() {
        List<String> log = new ArrayList<>();
        CountingScope scope = new CountingScope("closed");
        scope.close();
        assertFalse(Scopes.spawn(new ManualSender<Void>(), new Recording("a", log).token(scope.getToken(), "closed")));
        assertEquals(List.of("a refused closed"), log, "told the refusal, never decorated");
        assertEquals(1, scope.refusedCount());
    }

    @Test
    @DisplayName("composed decorators: decorated and installed in order, uninstalled in reverse, ended in order")
    void composed_inOrder() {
        List<String> log = new ArrayList<>();
        SpawnDecorator both = SpawnDecorator.compose(List.of(new Recording("a", log), SpawnDecorator.NONE,
                new Recording("b", log)));
        CountingScope scope = new CountingScope("c");
        ManualSender<Void> work = new ManualSender<>();
        assertTrue(Scopes.spawn(work, both.token(scope.getToken(), "c")));
        work.complete(null);
        assertEquals(List.of("a decorate c/null", "b decorate c/null",
                "a install", "b install", "b uninstall", "a uninstall",      // connect
                "a install", "b install", "b uninstall", "a uninstall",      // start
                "a end value", "b end value",
                "a install", "b install", "b uninstall", "a uninstall"), log); // the completion forwarded
        assertSame(SpawnDecorator.NONE, SpawnDecorator.compose(List.of(SpawnDecorator.NONE)));
        Recording one = new Recording("x", log);
        assertSame(one, SpawnDecorator.compose(List.of(one)));
        assertSame(one, one.andThen(SpawnDecorator.NONE));
        CountingScope plain = new CountingScope();
        assertSame(plain.getToken(), SpawnDecorator.NONE.token(plain.getToken(), "p"), "NONE adds nothing to a token");
    }

    @Test
    @DisplayName("the scope's stop reaches decorated work, which ends stopped")
    void stop_reachesDecoratedWork() {
        List<String> log = new ArrayList<>();
        CountingScope scope = new CountingScope("s");
        assertTrue(Scopes.spawn(ParkedWork.INSTANCE, new Recording("a", log).token(scope.getToken(), "s")));
        scope.requestStop();
        assertTrue(log.contains("a end stopped"), log.toString());
        assertEquals(0, scope.count());
    }

    @Test
    @DisplayName("a connect that throws ends the decoration with its error and releases the association")
    void throwingConnect_endsWithError() {
        List<String> log = new ArrayList<>();
        CountingScope scope = new CountingScope("t");
        Sender<Void> broken = r -> {
            throw new IllegalArgumentException("cannot connect");
        };
        assertThrows(IllegalArgumentException.class,
                () -> Scopes.spawn(broken, new Recording("a", log).token(scope.getToken(), "t")));
        assertTrue(log.contains("a end error cannot connect"), log.toString());
        assertEquals(0, scope.count());
    }

    @Test
    @DisplayName("null arguments are rejected with the parameter's name")
    void nulls() {
        assertThrows(NullPointerException.class, () -> SpawnDecorator.NONE.andThen(null));
        assertThrows(NullPointerException.class, () -> SpawnDecorator.compose(java.util.Arrays.asList((SpawnDecorator) null)));
        assertThrows(NullPointerException.class, () -> SpawnDecorator.NONE.token(null, "x"));
    }

    @Test
    @DisplayName("an executor's task not yet run is listed as queued, then as running; decorated or not")
    void executorTask_queuedThenRunning() throws Exception {
        for (boolean decorated : new boolean[] {false, true}) {
            CountingScope scope = new CountingScope("pool");
            java.util.concurrent.LinkedBlockingQueue<Runnable> held = new java.util.concurrent.LinkedBlockingQueue<>();
            AsyncScopeToken token = decorated ? new Recording("a", new ArrayList<>()).token(scope.getToken(), "pool")
                    : scope.getToken();
            ScopeExecutor tasks = ScopeExecutor.of(held::add, scope,
                    (task, name) -> Scopes.spawn(name == null ? task : Scopes.named(task, name), token));
            java.util.concurrent.CountDownLatch running = new java.util.concurrent.CountDownLatch(1);
            java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
            tasks.execute(ScopeExecutor.named(() -> {
                running.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "report"));
            OutstandingWork queued = scope.outstanding().get(0);
            assertTrue(queued.queued(), "handed to the executor, not run yet");
            assertTrue(queued.toString().startsWith("report (spawn, queued for "), queued.toString());
            assertTrue(OutstandingSummary.of(scope).lines(0).contains("report (spawn, queued for "));
            Thread runner = new Thread(held.take());
            runner.start();
            running.await();
            OutstandingWork now = scope.outstanding().get(0);
            assertFalse(now.queued(), "its thread runs it");
            assertTrue(now.toString().startsWith("report (spawn, running for "), now.toString());
            release.countDown();
            runner.join();
            assertEquals(0, scope.count());
        }
    }
}
