package dev.senders.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.senders.InplaceStopSource;
import dev.senders.StopCallback;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * Result: r1, r2 = what each closing thread saw of the callback right after its {@code close()}
 * returned (0 never started, 1 running, 2 finished), r3 = runs of the callback, r4 = 1 if a closer
 * was never woken and had to be rescued by the test's hang guard.
 *
 * <p>Three parties on two actors: the stopper is a plain thread that the first actor starts (a
 * closer on the stopper's own thread would return at once, by design). Both closers wait until
 * the callback has started, and the callback holds on until both closers have called
 * {@code close()}: so both always find it running, and both must wait for it and then return.
 *
 * <p>A hang is the failure this test is after. jcstress 0.16 does not time out a stuck actor
 * in this mode (the run just stops progressing), so the test guards itself: a closer whose
 * {@code close()} returned waits for its peer's to return too; if the peer has not returned
 * {@value #RESCUE_AFTER_MS} ms later, the peer was not woken: the closer records it (r4 = 1,
 * forbidden) and unparks the peer, whose wait loop then sees the callback finished and returns.
 * That deadline is only a hang guard: with a correct close() the peer returns within microseconds.
 * Once a fork has seen one lost wake-up (the test has failed), later rescues come after 200 us,
 * so that a broken build fails in seconds rather than hours.
 */
@JCStressTest
@Description("InplaceStopSource: StopCallback.close() is idempotent and thread-safe, so two threads "
        + "may close the same registration while its callback runs on the stopper. Both must wait "
        + "for the callback to finish, then both must return (a single waiter slot loses one of "
        + "the two wake-ups: that closer hangs, reported as a timeout).")
@Outcome(id = "2, 2, 1, 0", expect = ACCEPTABLE, desc = "both closes returned after the callback finished")
@Outcome(id = ".*, 1", expect = FORBIDDEN, desc = "lost wake-up: a closer stayed parked after the callback finished")
@Outcome(id = "(1, .*|[0-3], 1, .*)", expect = FORBIDDEN, desc = "callback still running after a close() returned")
@Outcome(id = "(0, .*|[0-3], 0, .*)", expect = FORBIDDEN, desc = "a closer saw the callback not started after close()")
@Outcome(id = "[0-3], [0-3], [2-9], .*", expect = FORBIDDEN, desc = "callback ran more than once")
@Outcome(expect = FORBIDDEN, desc = "any other combination")
@State
public class StopCallbackCloseVsCloseWhileRunning {

    final InplaceStopSource source = new InplaceStopSource();
    volatile int closersArrived;
    volatile int started;
    volatile int finished;
    final StopCallback registration = source.token().onStop(this::callback);
    Thread stopper;
    volatile Thread closer1;
    volatile Thread closer2;
    volatile boolean returned1;
    volatile boolean returned2;
    volatile int rescued;
    int seen1;
    int seen2;

    static final long RESCUE_AFTER_MS = 1000;
    /** Once this VM saw one lost wake-up (the test has failed), rescue quickly to finish the run. */
    static volatile boolean lostWakeUpSeen;

    private void callback() {
        STARTED.getAndAdd(this, 1);
        // Both closers always arrive (they are actors), so this wait is bounded.
        while (closersArrived < 2) {
            Thread.onSpinWait();
        }
        // Let both of them get into close() and find the callback running.
        for (int i = 0; i < 256; i++) {
            Thread.onSpinWait();
        }
        FINISHED.getAndAdd(this, 1);
    }

    private int closeWhileRunning() {
        while (started == 0) {
            Thread.onSpinWait();
        }
        ARRIVED.getAndAdd(this, 1);
        registration.close();
        int f = finished;
        int s = started;
        if (s == 0) {
            return 0;
        }
        return f == 0 ? 1 : s > 1 || f > 1 ? 3 : 2;
    }

    /** Hang guard: waits for the peer closer's close() to return, rescuing it if it never does. */
    private void awaitPeer(boolean first) {
        long deadline = System.nanoTime()
                + (lostWakeUpSeen ? TimeUnit.MICROSECONDS.toNanos(200) : TimeUnit.MILLISECONDS.toNanos(RESCUE_AFTER_MS));
        while (!(first ? returned2 : returned1)) {
            if (System.nanoTime() - deadline > 0) {
                rescued = 1;
                lostWakeUpSeen = true;
                Thread peer = first ? closer2 : closer1;
                if (peer != null) {
                    LockSupport.unpark(peer);
                }
            }
            Thread.yield();
        }
    }

    @Actor
    public void close1() {
        closer1 = Thread.currentThread();
        stopper = new Thread(source::requestStop, "stopper");
        stopper.setDaemon(true);
        stopper.start();
        seen1 = closeWhileRunning();
        returned1 = true;
        awaitPeer(true);
    }

    @Actor
    public void close2() {
        closer2 = Thread.currentThread();
        seen2 = closeWhileRunning();
        returned2 = true;
        awaitPeer(false);
    }

    @Arbiter
    public void arbiter(IIII_Result r) {
        try {
            stopper.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        r.r1 = seen1;
        r.r2 = seen2;
        r.r3 = started;
        r.r4 = rescued;
    }

    private static final VarHandle ARRIVED;
    private static final VarHandle STARTED;
    private static final VarHandle FINISHED;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            ARRIVED = l.findVarHandle(StopCallbackCloseVsCloseWhileRunning.class, "closersArrived", int.class);
            STARTED = l.findVarHandle(StopCallbackCloseVsCloseWhileRunning.class, "started", int.class);
            FINISHED = l.findVarHandle(StopCallbackCloseVsCloseWhileRunning.class, "finished", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
