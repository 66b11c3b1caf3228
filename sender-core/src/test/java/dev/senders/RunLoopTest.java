package dev.senders;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.senders.testkit.TestReceiver;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** P2300R3 [exec.run_loop]. */
class RunLoopTest {

    @Test
    @DisplayName("[exec.run_loop] work runs in FIFO order on the thread that calls run()")
    void runLoop_fifo() {
        RunLoop loop = Schedulers.runLoop();
        List<Integer> order = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            int k = i;
            loop.schedule().then(v -> {
                order.add(k);
                threads.add(Thread.currentThread());
                return v;
            }).connect(new TestReceiver<>()).start();
        }
        assertEquals(0, order.size(), "nothing runs before run()");
        loop.finish();
        loop.run();
        List<Integer> expected = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            expected.add(i);
        }
        assertEquals(expected, order);
        threads.forEach(t -> assertEquals(Thread.currentThread(), t));
    }

    @Test
    @DisplayName("[exec.run_loop] finish drains the queue (including work queued while draining) then run returns")
    void runLoop_finishDrainsThenReturns() {
        RunLoop loop = Schedulers.runLoop();
        TestReceiver<Void> late = new TestReceiver<>();
        TestReceiver<Void> first = new TestReceiver<>();
        loop.schedule().then(v -> {
            loop.schedule().connect(late).start(); // queued while draining
            return v;
        }).connect(first).start();
        loop.finish();
        loop.run();
        assertEquals(TestReceiver.Kind.VALUE, first.single().kind());
        assertEquals(TestReceiver.Kind.VALUE, late.single().kind());
        // after run() returned, scheduled work completes stopped at once
        TestReceiver<Void> after = new TestReceiver<>();
        loop.schedule().connect(after).start();
        assertEquals(TestReceiver.Kind.STOPPED, after.single().kind());
    }

    @Test
    @DisplayName("[exec.run_loop] an item whose stop was requested completes stopped")
    void runLoop_stopRequestedItemCompletesStopped() {
        RunLoop loop = Schedulers.runLoop();
        InplaceStopSource stop = new InplaceStopSource();
        TestReceiver<Void> stopped = TestReceiver.withStopToken(stop.token());
        TestReceiver<Void> other = new TestReceiver<>();
        loop.schedule().connect(stopped).start();
        loop.schedule().connect(other).start();
        stop.requestStop();
        loop.finish();
        loop.run();
        assertEquals(TestReceiver.Kind.STOPPED, stopped.single().kind());
        assertEquals(TestReceiver.Kind.VALUE, other.single().kind());
    }

    @Test
    @DisplayName("[exec.run_loop] finish from another thread wakes a parked run()")
    void runLoop_finishFromAnotherThreadWakesRun() throws Exception {
        RunLoop loop = Schedulers.runLoop();
        TestReceiver<Void> r = new TestReceiver<>();
        Thread producer = new Thread(() -> {
            loop.schedule().connect(r).start();
            loop.finish();
        });
        producer.start();
        loop.run();
        producer.join(10_000);
        assertEquals(TestReceiver.Kind.VALUE, r.single().kind());
    }
}
