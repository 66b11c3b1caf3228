package dev.senders.scope;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.Scheduler;
import dev.senders.Schedulers;
import dev.senders.Sender;
import dev.senders.Senders;
import dev.senders.testkit.TestReceiver;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Every example of P3149R6 "Examples of use" and of P3296R3, ported and run. */
@DisplayName("P3149R6 Examples of use, P3296R3 examples")
class ExamplesTest {

    private static final ExecutorService POOL = Executors.newFixedThreadPool(2);
    private static final Scheduler SCH = Schedulers.fromExecutor(POOL);

    @AfterAll
    static void shutdown() {
        POOL.shutdownNow();
    }

    @Test
    @DisplayName("Spawning work from within a task: let_async_scope + spawn(on(sch, print)) returns 13 after the print ran")
    void spawningWorkFromWithinATask() {
        Queue<String> out = new ConcurrentLinkedQueue<>();
        Sender<Integer> val = Scopes.letAsyncScope(scope -> {
            int v = 13;
            Sender<Object> print = TestSenders.fromCallable(() -> out.add("Hello world! Have an int with value: " + v));
            Scopes.spawn(print.startsOn(SCH), scope);
            return Senders.just(v);
        });
        int result = Senders.syncWait(val.startsOn(SCH));
        assertEquals(13, result);
        assertEquals(List.of("Hello world! Have an int with value: 13"), new ArrayList<>(out));
    }

    /** Starting work nested within a framework: my_window. */
    static final class MyWindow {
        final Scheduler sch;
        final AsyncScopeToken scope;
        final AtomicInteger count = new AtomicInteger();
        final Queue<Object> handled = new ConcurrentLinkedQueue<>();

        MyWindow(Scheduler sch, AsyncScopeToken scope) {
            this.sch = sch;
            this.scope = scope;
        }

        Sender<Object> someWork(Object message) {
            return TestSenders.fromCallable(() -> handled.add(message));
        }

        void onMessage(int i) {
            count.incrementAndGet();
            Scopes.spawn(someWork(i).startsOn(sch), scope);
        }

        void onClickClose() {
            count.incrementAndGet();
            Scopes.spawn(someWork("close").startsOn(sch), scope);
        }
    }

    @Test
    @DisplayName("Starting work nested within a framework: the window's work is all done once sync_wait(scope.join()) returns")
    void startingWorkNestedWithinAFramework() {
        CountingScope scope = new CountingScope();
        MyWindow window = new MyWindow(SCH, scope.getToken());
        for (int i = 0; i < 10; i++) {
            window.onMessage(i); // the framework delivering messages
        }
        window.onClickClose();
        Senders.syncWait(scope.join());
        assertEquals(11, window.count.get());
        assertEquals(11, window.handled.size(), "all resources are now safe to destroy");
    }

    @Test
    @DisplayName("Starting parallel work: 100 tasks launched inside let_async_scope all complete before 'After tasks complete'")
    void startingParallelWork() {
        AtomicInteger done = new AtomicInteger();
        Queue<String> log = new ConcurrentLinkedQueue<>();
        Sender<Object> foo = Scopes.letAsyncScope(scope ->
                SCH.schedule().then(v -> log.add("Before tasks launch")).then(v -> {
                    for (int i = 0; i < 100; i++) {
                        Scopes.spawn(TestSenders.fromCallable(done::incrementAndGet).startsOn(SCH), scope);
                    }
                    return null;
                })).then(v -> {
                    log.add("After tasks complete successfully, done=" + done.get());
                    return v;
                });
        Senders.syncWait(foo);
        assertEquals(List.of("Before tasks launch", "After tasks complete successfully, done=100"), new ArrayList<>(log));
    }

    @Test
    @DisplayName("Listener loop in an HTTP server (loopback socket): every request handled before the listener completes")
    void listenerLoopInAnHttpServer() throws Exception {
        ExecutorService acceptor = Executors.newSingleThreadExecutor();
        try (ServerSocket listenSock = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            listenSock.setSoTimeout(50);
            AtomicBoolean ctxStopped = new AtomicBoolean();
            AtomicInteger handledCount = new AtomicInteger();
            Sender<Integer> listener = Scopes.letAsyncScope(scope -> TestSenders.fromCallable(() -> {
                        int count = 0;
                        while (!ctxStopped.get()) {
                            Socket conn;
                            try {
                                conn = listenSock.accept(); // async_accept
                            } catch (SocketTimeoutException again) {
                                continue;
                            } catch (IOException e) {
                                throw new UncheckedIOException(e);
                            }
                            count++;
                            Scopes.spawn(handleConnection(conn, handledCount).startsOn(SCH), scope);
                        }
                        return count;
                    }).startsOn(Schedulers.fromExecutor(acceptor)));
            Future<Integer> server = POOL.submit(() -> Senders.syncWait(listener));
            for (int i = 0; i < 5; i++) {
                try (Socket c = new Socket(InetAddress.getLoopbackAddress(), listenSock.getLocalPort());
                        PrintWriter w = new PrintWriter(c.getOutputStream(), true, StandardCharsets.UTF_8);
                        BufferedReader rd = new BufferedReader(new InputStreamReader(c.getInputStream(), StandardCharsets.UTF_8))) {
                    w.println("GET /" + i + " HTTP/1.0");
                    assertEquals("HTTP/1.0 200 OK /" + i, rd.readLine());
                }
            }
            ctxStopped.set(true);
            int count = server.get(10, TimeUnit.SECONDS);
            assertEquals(5, count);
            assertEquals(5, handledCount.get(), "at this point, all the request handling is complete");
        } finally {
            acceptor.shutdownNow();
        }
    }

    private static Sender<Object> handleConnection(Socket conn, AtomicInteger handled) {
        return TestSenders.fromCallable(() -> {
            try (Socket c = conn;
                    BufferedReader rd = new BufferedReader(new InputStreamReader(c.getInputStream(), StandardCharsets.UTF_8));
                    PrintWriter w = new PrintWriter(c.getOutputStream(), true, StandardCharsets.UTF_8)) {
                String line = rd.readLine();
                String path = line.split(" ")[1];
                w.println("HTTP/1.0 200 OK " + path);
                handled.incrementAndGet();
                return null;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    /** Pluggable functionality through composition: rsys Call and Camera. */
    static final class Call {
        final CountingScope scope = new CountingScope();
        final Camera camera = new Camera(this);

        Sender<Void> destroy() {
            scope.close();
            return scope.join();
        }
    }

    static final class Camera {
        final Call call;
        final AtomicInteger toggles = new AtomicInteger();
        final AtomicInteger callableInvocations = new AtomicInteger();

        Camera(Call call) {
            this.call = call;
        }

        Sender<Object> toggle() {
            return Scopes.nest(Senders.just().letValue(v -> {
                callableInvocations.incrementAndGet(); // only invoked if nest() succeeded
                return SCH.schedule().then(x -> toggles.incrementAndGet());
            }), call.scope.getToken());
        }
    }

    @Test
    @DisplayName("Pluggable functionality through composition: toggle works before Call::destroy, safely does nothing (stopped) after")
    void pluggableFunctionalityThroughComposition() {
        Call call = new Call();
        Camera camera = call.camera;
        Senders.syncWait(camera.toggle());
        assertEquals(1, camera.toggles.get());
        Sender<Object> pending = camera.toggle(); // nested while open: still runs after close
        Senders.syncWait(Senders.whenAll(call.destroy(), pending, (wa0, wa1) -> new Object[] {wa0, wa1}));
        assertEquals(2, camera.toggles.get());
        assertThrows(CancellationException.class, () -> Senders.syncWait(camera.toggle()));
        assertEquals(2, camera.callableInvocations.get(), "the callable is not invoked after destroy");
    }

    @Test
    @DisplayName("Recursively spawning work until completion: let_async_scope with spawn()")
    void recursive_letAsyncScopeWithSpawn() {
        AtomicInteger done = new AtomicInteger();
        SpawnTest.Tree t = SpawnTest.makeTree(1000);
        Senders.syncWait(Scopes.letAsyncScope(scope -> SpawnTest.process(scope, SCH, t, done)));
        assertEquals(1000, done.get());
    }

    static Sender<Object> processWithFutures(Scheduler sch, AsyncScopeToken scope, SpawnTest.Tree t, AtomicInteger done) {
        return sch.schedule().letValue(v -> {
            Sender<?> leftFut = Senders.just();
            Sender<?> rightFut = Senders.just();
            if (t.left != null) {
                leftFut = Scopes.spawnFuture(processWithFutures(sch, scope, t.left, done), scope);
            }
            if (t.right != null) {
                rightFut = Scopes.spawnFuture(processWithFutures(sch, scope, t.right, done), scope);
            }
            done.incrementAndGet();
            return Senders.whenAll(leftFut, rightFut, (wa0, wa1) -> new Object[] {wa0, wa1}).then(x -> null);
        });
    }

    @Test
    @DisplayName("Recursively spawning work until completion: let_async_scope with spawn_future(); errors surface")
    void recursive_letAsyncScopeWithSpawnFuture() {
        AtomicInteger done = new AtomicInteger();
        SpawnTest.Tree t = SpawnTest.makeTree(1000);
        Senders.syncWait(Scopes.letAsyncScope(scope -> processWithFutures(SCH, scope, t, done)));
        assertEquals(1000, done.get());
        SpawnTest.Tree bad = SpawnTest.makeTree(3);
        bad.right.right = null;
        IllegalStateException boom = new IllegalStateException("do_stuff failed");
        Sender<Object> failing = Scopes.letAsyncScope(scope -> SCH.schedule().letValue(v ->
                Senders.whenAll(Scopes.spawnFuture(processWithFutures(SCH, scope, bad, new AtomicInteger()), scope),
                        Scopes.spawnFuture(Senders.justError(boom), scope), (wa0, wa1) -> new Object[] {wa0, wa1}).then(x -> null)));
        assertSame(boom, assertThrows(IllegalStateException.class, () -> Senders.syncWait(failing)));
    }

    @Test
    @DisplayName("Recursively spawning work until completion: counting_scope")
    void recursive_countingScope() {
        AtomicInteger done = new AtomicInteger();
        SpawnTest.Tree t = SpawnTest.makeTree(1000);
        CountingScope scope = new CountingScope();
        Scopes.spawn(SpawnTest.process(scope.getToken(), SCH, t, done), scope.getToken());
        Senders.syncWait(scope.join());
        assertEquals(1000, done.get());
    }

    @Test
    @DisplayName("[exec.simple.counting] nest usage example: nest(key_work) + 10 spawns, on(sched, snd)")
    void nestUsageExample() {
        SimpleCountingScope scope = new SimpleCountingScope();
        AtomicInteger other = new AtomicInteger();
        Sender<String> snd = Scopes.nest(TestSenders.fromCallable(() -> "key"), scope.getToken());
        for (int i = 0; i < 10; i++) {
            Scopes.spawn(TestSenders.fromCallable(other::incrementAndGet).startsOn(SCH), scope.getToken());
        }
        assertEquals("key", Senders.syncWait(snd.startsOn(SCH)));
        Senders.syncWait(scope.join());
        assertEquals(10, other.get());
    }

    @Test
    @DisplayName("[exec.spawn.future] usage example: spawn_future(on(sched, key_work)) | then(continue), when_all(join, snd)")
    void spawnFutureUsageExample() {
        SimpleCountingScope scope = new SimpleCountingScope();
        AtomicInteger other = new AtomicInteger();
        Sender<String> snd = Scopes.spawnFuture(
                TestSenders.fromCallable(() -> "key").startsOn(SCH), scope.getToken()).then(k -> k + "+continued");
        for (int i = 0; i < 10; i++) {
            Scopes.spawn(TestSenders.fromCallable(other::incrementAndGet).startsOn(SCH), scope.getToken());
        }
        Object[] r = Senders.syncWait(Senders.whenAll(scope.join(), snd, (wa0, wa1) -> new Object[] {wa0, wa1}));
        assertEquals("key+continued", r[1]);
        assertEquals(10, other.get());
    }

    @Test
    @DisplayName("P3296R3 motivation: nested spawns on scoped data; even if maybe_throw throws, completion waits for all nested work")
    void p3296_scopedData_maybeThrow() {
        for (boolean shouldThrow : new boolean[] {false, true}) {
            Queue<String> scopedData = new ConcurrentLinkedQueue<>();
            AtomicBoolean completed = new AtomicBoolean();
            IllegalStateException thrown = new IllegalStateException("maybe_throw");
            Sender<Object> scopeSender = Scopes.letAsyncScope(token -> {
                Scopes.spawn(TestSenders.fromCallable(() -> {
                    Scopes.spawn(TestSenders.fromCallable(() -> {
                        Scopes.spawn(TestSenders.fromCallable(() -> scopedData.add("more")).startsOn(SCH), token);
                        Scopes.spawn(TestSenders.fromCallable(() -> scopedData.add("other")).startsOn(SCH), token);
                        return null;
                    }).startsOn(SCH), token);
                    Scopes.spawn(TestSenders.fromCallable(() -> scopedData.add("else")).startsOn(SCH), token);
                    return null;
                }).startsOn(SCH), token);
                if (shouldThrow) {
                    throw thrown;
                }
                return Senders.<Object>just(null);
            });
            TestReceiver<Object> r = new TestReceiver<>();
            TestSenders.beforeCompletion(scopeSender, () -> completed.set(true)).connect(r).start();
            r.await();
            assertFalse(scopedData.isEmpty() && !shouldThrow);
            if (shouldThrow) {
                assertSame(thrown, r.error());
            } else {
                assertEquals(3, scopedData.size(), "no out-of-lifetime access: all nested work ran before completion");
            }
            assertTrue(completed.get());
        }
    }
}
