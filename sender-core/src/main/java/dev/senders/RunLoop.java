package dev.senders;

import dev.senders.internal.ScheduleOperation;
import dev.senders.internal.signal.ImmediateOperation;
import dev.senders.internal.signal.Signals;
import dev.senders.internal.VarHandles;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Objects;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.LockSupport;
import org.jspecify.annotations.Nullable;

/**
 * A FIFO work queue driven by the thread that calls {@link #run()} ({@code run_loop}, P2300R3
 * [exec.run_loop]). It is itself a {@link Scheduler}: work scheduled on it completes on the
 * thread running {@code run()}, in the order it was scheduled.
 *
 * <p>{@link #finish()} asks {@code run()} to return once the queue is empty: work already queued,
 * and work queued while draining, still runs. Work scheduled after {@code run()} has returned
 * completes with {@code setStopped()} at once, since no thread will ever run it. An item whose
 * receiver's stop is requested while it waits completes with {@code setStopped()} at once, on the
 * requesting thread (and is skipped when its turn comes).
 *
 * <p>{@code run()} is the blocking part: it parks while the queue is empty. One thread at a time.
 */
public final class RunLoop implements Scheduler {

    private static final int OPEN = 0, FINISHING = 1, DONE = 2;

    private final ConcurrentLinkedQueue<Item> queue = new ConcurrentLinkedQueue<>();
    private volatile int phase;
    private volatile @Nullable Thread driver;
    private volatile @Nullable Thread sleeper;

    /** A new run loop with an empty queue; nothing runs until a thread calls {@link #run()}. */
    public RunLoop() {}

    @Override
    public Sender<Void> schedule() {
        return receiver -> new Item(this, Objects.requireNonNull(receiver, "receiver"));
    }

    /** Runs queued work on this thread until {@link #finish()} was called and the queue is empty. */
    public void run() {
        boolean interrupted = false;
        while (runUntil(0L) == INTERRUPTED) {
            interrupted = true; // run() is not interruptible: keep going, restore the status at the end
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** What {@link #runUntil} returns. */
    static final int FINISHED = 0, INTERRUPTED = 1, TIMED_OUT = 2;

    /**
     * As {@link #run()}, but returns {@link #INTERRUPTED} when the driving thread is interrupted
     * (its interrupt status cleared: the caller decides) and {@link #TIMED_OUT} once
     * {@code System.nanoTime()} passes {@code deadline} (0: no deadline), leaving queued work in
     * the queue; {@link #FINISHED} when {@code run()} would return. May be called again afterwards.
     */
    int runUntil(long deadline) {
        Thread me = Thread.currentThread();
        if (!DRIVER.compareAndSet(this, null, me)) {
            throw new IllegalStateException("RunLoop.run() is already running on " + driver);
        }
        try {
            for (;;) {
                Item item = queue.poll();
                if (item != null) {
                    item.run();
                    continue;
                }
                if (phase != OPEN) {
                    phase = DONE;
                    // Items queued before DONE was visible to their pusher are ours to run.
                    while ((item = queue.poll()) != null) {
                        item.run();
                    }
                    return FINISHED;
                }
                if (Thread.interrupted()) {
                    return INTERRUPTED;
                }
                long wait = 0L;
                if (deadline != 0L && (wait = deadline - System.nanoTime()) <= 0L) {
                    return TIMED_OUT;
                }
                sleeper = me;
                if (queue.isEmpty() && phase == OPEN) {
                    if (deadline == 0L) {
                        LockSupport.park(this);
                    } else {
                        LockSupport.parkNanos(this, wait);
                    }
                }
                sleeper = null;
            }
        } finally {
            driver = null;
        }
    }

    /**
     * Gives up on the loop: no thread will run it again. Queued work, and work scheduled from now
     * on, completes with {@code setStopped()} on the calling (or scheduling) thread, as after
     * {@code run()} returned. Used by {@code syncWait} when its wait ends early.
     */
    void abandon() {
        phase = DONE;
        Item item;
        while ((item = queue.poll()) != null) {
            Signals.setStopped(item.receiver);
        }
    }

    /** Asks {@link #run()} to return once it has drained the queue. Any thread; idempotent. */
    public void finish() {
        if (phase == OPEN) {
            PHASE.compareAndSet(this, OPEN, FINISHING);
        }
        wake();
    }

    private void enqueue(Item item) {
        queue.offer(item);
        if (phase == DONE && queue.remove(item)) {
            item.stopNow();
            return;
        }
        wake();
    }

    private void wake() {
        Thread s = sleeper;
        if (s != null) {
            LockSupport.unpark(s);
        }
    }

    @Override
    public String toString() {
        return "RunLoop[" + (phase == OPEN ? "open" : phase == FINISHING ? "finishing" : "done") + "]";
    }

    /**
     * The schedule operation: the queue node itself, so scheduling allocates one object. Its
     * {@code state} goes {@code NEW -> QUEUED} at {@code start} (a second start throws) and
     * {@code QUEUED -> DONE} by one CAS, taken by the loop running it or, while it waits in the
     * queue, by a stop request (the item is its own stop callback): a stopped item completes at
     * once on the stopping thread and is skipped when its turn comes.
     */
    private static final class Item implements OperationState, Runnable {
        private static final int NEW = 0, QUEUED = 1, DONE = 2;

        final RunLoop loop;
        final Receiver<? super Void> receiver;
        private volatile int state;
        private @Nullable StopCallback stopCallback;

        Item(RunLoop loop, Receiver<? super Void> receiver) {
            this.loop = loop;
            this.receiver = receiver;
        }

        @Override
        public void start() {
            if (!ITEM_STATE.compareAndSet(this, NEW, QUEUED)) {
                throw ImmediateOperation.startedTwice(loop + ".schedule()'s operation");
            }
            StopToken token = receiver.env().stopToken();
            if (token.stopPossible()) {
                stopCallback = token.onStop(this); // runs inline if stop was already requested
                if (state == DONE) {
                    return;
                }
            }
            loop.enqueue(this);
        }

        /** Its turn on the loop; also the stop callback while it waits. The first call completes. */
        @Override
        public void run() {
            if (ITEM_STATE.compareAndSet(this, QUEUED, DONE)) {
                closeStopCallback(); // returns at once when we are that callback
                ScheduleOperation.complete(receiver);
            }
        }

        /** The loop is done and will never run it. */
        void stopNow() {
            if (ITEM_STATE.compareAndSet(this, QUEUED, DONE)) {
                closeStopCallback();
                Signals.setStopped(receiver);
            }
        }

        private void closeStopCallback() {
            StopCallback cb = stopCallback;
            if (cb != null) {
                stopCallback = null;
                cb.close();
            }
        }
    }

    private static final VarHandle PHASE = VarHandles.field(MethodHandles.lookup(), RunLoop.class, "phase", int.class);
    private static final VarHandle DRIVER = VarHandles.field(MethodHandles.lookup(), RunLoop.class, "driver", Thread.class);
    private static final VarHandle ITEM_STATE = VarHandles.field(MethodHandles.lookup(), Item.class, "state", int.class);
}
