package dev.senders.task;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.Senders;
import dev.senders.scope.CountingScope;
import dev.senders.scope.Scopes;
import dev.senders.testkit.TestReceiver;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Tasks in async scopes (P3149R6 spawn/counting_scope, P3296R3 let_async_scope). */
class TaskScopesTest {

    @Test
    @DisplayName("P3149 [exec.spawn] spawn(Task.of(...), token): join completes only after the task's body")
    void spawnTask_joinCompletesAfterTheBody() {
        CountingScope scope = new CountingScope();
        CountDownLatch gate = new CountDownLatch(1);
        AtomicInteger ran = new AtomicInteger();
        assertTrue(Scopes.spawn(Task.<Void>of(ctx -> {
            gate.await();
            ran.set(ctx.await(Senders.just(1)));
            return null;
        }), scope.getToken()));
        scope.close();
        TestReceiver<Void> joined = TestReceiver.start(scope.join());
        assertEquals(0, joined.completions(), "join waits for the spawned task");
        gate.countDown();
        joined.awaitSignal(TestReceiver.Kind.VALUE);
        assertEquals(1, ran.get());
    }

    @Test
    @DisplayName("P3149 [exec.counting.scopes] requestStop reaches the sender a spawned Task awaits; it unwinds and join completes")
    void scopeRequestStop_stopsTheSpawnedTask() throws Exception {
        CountingScope scope = new CountingScope();
        CountDownLatch awaiting = new CountDownLatch(1);
        AtomicInteger sawStop = new AtomicInteger();
        AtomicReference<Throwable> unwound = new AtomicReference<>();
        Scopes.spawn(Task.<Void>of(ctx -> {
            try {
                return ctx.await(TaskSenders.<Void>untilStopped(awaiting, sawStop));
            } catch (TaskStoppedException e) {
                unwound.set(e);
                throw e;
            }
        }), scope.getToken());
        assertTrue(awaiting.await(10, TimeUnit.SECONDS), "hang guard");
        scope.requestStop();
        scope.close();
        Senders.syncWait(scope.join());
        assertEquals(1, sawStop.get());
        assertInstanceOf(TaskStoppedException.class, unwound.get());
    }

    @Test
    @DisplayName("P3296 letAsyncScope inside a Task: work spawned in the scope is joined before the await returns")
    void letAsyncScopeInsideATask_joinedBeforeTheAwaitReturns() throws Exception {
        List<Integer> done = new CopyOnWriteArrayList<>();
        CountDownLatch gate = new CountDownLatch(1);
        CountDownLatch innerReturned = new CountDownLatch(1);
        TestReceiver<Integer> p = TestReceiver.start(Task.of(ctx -> {
            ctx.await(Scopes.letAsyncScope(token -> Task.<Void>of(inner -> {
                try {
                    for (int i = 0; i < 10; i++) {
                        int n = i;
                        Scopes.spawn(Task.<Void>of(c -> {
                            gate.await();
                            done.add(n);
                            return null;
                        }), token);
                    }
                    return null;
                } finally {
                    innerReturned.countDown();
                }
            })));
            return done.size();
        }));
        assertTrue(innerReturned.await(10, TimeUnit.SECONDS), "hang guard");
        assertEquals(0, p.completions(), "letAsyncScope joins the spawned work first");
        gate.countDown();
        p.awaitSignal(TestReceiver.Kind.VALUE);
        assertEquals(10, p.value());
    }

    /** P3149R6 "Listener loop in an HTTP server", ported to a Task. */
    static Task<Integer> listener(BlockingQueue<String> listenSocket, List<String> handled,
                                  CountDownLatch handlersMayFinish, CountDownLatch loopEnded) {
        return Task.of(ctx -> {
            int[] count = {0};
            ctx.await(Scopes.letAsyncScope(scope -> Task.<Void>of(loop -> {
                try {
                    while (!loop.stopToken().stopRequested()) {
                        String conn = listenSocket.take();      // accept: blocking is fine on the task's thread
                        if (conn.equals("EOF")) {
                            break;
                        }
                        count[0]++;
                        Scopes.spawn(Task.<Void>of(h -> {       // handle_connection(data)
                            handlersMayFinish.await();
                            handled.add(conn);
                            return null;
                        }), scope);
                    }
                    return null;
                } finally {
                    loopEnded.countDown();
                }
            })));
            // At this point, all the request handling is complete
            return count[0];
        });
    }

    @Test
    @DisplayName("P3149 listener loop as a Task: every accepted connection is handled before the listener completes")
    void listenerLoop_allHandlingCompleteWhenTheListenerReturns() throws Exception {
        BlockingQueue<String> socket = new LinkedBlockingQueue<>();
        List<String> handled = new CopyOnWriteArrayList<>();
        CountDownLatch gate = new CountDownLatch(1);
        CountDownLatch loopEnded = new CountDownLatch(1);
        TestReceiver<Integer> p = TestReceiver.start(listener(socket, handled, gate, loopEnded));
        for (String c : List.of("c1", "c2", "c3")) {
            socket.put(c);
        }
        socket.put("EOF");
        assertTrue(loopEnded.await(10, TimeUnit.SECONDS), "hang guard");
        assertEquals(0, p.completions(), "the listener waits for its connections' handlers");
        gate.countDown();
        p.awaitSignal(TestReceiver.Kind.VALUE);
        assertEquals(3, p.value());
        assertEquals(Set.of("c1", "c2", "c3"), Set.copyOf(handled));
    }

    @Test
    @DisplayName("P3149 listener loop as a Task: a stop request ends the loop (interrupting a blocked accept); the listener completes only after the loop ended and the scope joined")
    void listenerLoop_stopRequestEndsTheLoop() throws Exception {
        BlockingQueue<String> socket = new LinkedBlockingQueue<>();
        CountDownLatch firstHandled = new CountDownLatch(1);
        List<String> handled = new CopyOnWriteArrayList<>() {
            @Override
            public boolean add(String connection) {
                super.add(connection);
                firstHandled.countDown();
                return true;
            }
        };
        CountDownLatch gate = new CountDownLatch(0);
        CountDownLatch loopEnded = new CountDownLatch(1);
        TestReceiver<Integer> p = TestReceiver.start(listener(socket, handled, gate, loopEnded));
        socket.put("c1");
        assertTrue(firstHandled.await(10, TimeUnit.SECONDS), "hang guard: the loop is running");
        assertEquals(List.of("c1"), handled);
        p.requestStop();
        TestReceiver.Signal s = p.awaitSingle();
        // Where the stop finds the loop decides how it ends, and both are right: blocked in take(),
        // it is interrupted and the task completes stopped; between two iterations, it sees
        // stopRequested() and returns normally, so the listener returns its count (1).
        assertTrue(s.kind() == TestReceiver.Kind.STOPPED
                || (s.kind() == TestReceiver.Kind.VALUE && Integer.valueOf(1).equals(s.payload())), s.toString());
        assertEquals(0, loopEnded.getCount(), "the loop body ran its finally before the listener completed");
    }
}
