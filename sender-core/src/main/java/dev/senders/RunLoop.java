package dev.senders;

import dev.senders.internal.Signals;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Objects;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.LockSupport;

/**
 * A FIFO work queue driven by the thread that calls {@link #run()} ({@code run_loop}, P2300R3
 * [exec.run_loop]). It is itself a {@link Scheduler}: work scheduled on it completes on the
 * thread running {@code run()}, in the order it was scheduled.
 *
 * <p>{@link #finish()} asks {@code run()} to return once the queue is empty: work already queued,
 * and work queued while draining, still runs. Work scheduled after {@code run()} has returned
 * completes with {@code setStopped()} at once, since no thread will ever run it. An item whose
 * receiver's stop was requested completes with {@code setStopped()} when its turn comes.
 *
 * <p>{@code run()} is the blocking part: it parks while the queue is empty. One thread at a time.
 */
public final class RunLoop implements Scheduler {

    private static final int OPEN = 0, FINISHING = 1, DONE = 2;

    private final ConcurrentLinkedQueue<Item> queue = new ConcurrentLinkedQueue<>();
    private volatile int phase;
    private volatile Thread driver;
    private volatile Thread sleeper;

    /** A new run loop with an empty queue; nothing runs until a thread calls {@link #run()}. */
    public RunLoop() {}

    @Override
    public Sender<Void> schedule() {
        return receiver -> new Item(this, Objects.requireNonNull(receiver, "receiver"));
    }

    /** Runs queued work on this thread until {@link #finish()} was called and the queue is empty. */
    public void run() {
        runUntilFinished(null);
    }

    /**
     * As {@link #run()}; an interrupt of the driving thread calls {@code onInterrupt} (once per
     * interrupt) and the loop goes on, with the thread's interrupt status restored at the end.
     */
    void runUntilFinished(Runnable onInterrupt) {
        Thread me = Thread.currentThread();
        if (!DRIVER.compareAndSet(this, null, me)) {
            throw new IllegalStateException("RunLoop.run() is already running on " + driver);
        }
        boolean interrupted = false;
        try {
            for (;;) {
                Item item = queue.poll();
                if (item != null) {
                    item.execute();
                    continue;
                }
                if (phase != OPEN) {
                    phase = DONE;
                    // Items queued before DONE was visible to their pusher are ours to run.
                    while ((item = queue.poll()) != null) {
                        item.execute();
                    }
                    return;
                }
                sleeper = me;
                if (queue.isEmpty() && phase == OPEN) {
                    LockSupport.park(this);
                }
                sleeper = null;
                if (Thread.interrupted()) {
                    interrupted = true;
                    if (onInterrupt != null) {
                        onInterrupt.run();
                    }
                }
            }
        } finally {
            driver = null;
            if (interrupted) {
                me.interrupt();
            }
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
            Signals.setStopped(item.receiver);
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

    /** The schedule operation: the queue node itself, so scheduling allocates one object. */
    private static final class Item implements OperationState {
        final RunLoop loop;
        final Receiver<? super Void> receiver;

        Item(RunLoop loop, Receiver<? super Void> receiver) {
            this.loop = loop;
            this.receiver = receiver;
        }

        @Override
        public void start() {
            loop.enqueue(this);
        }

        void execute() {
            if (receiver.env().stopToken().stopRequested()) {
                Signals.setStopped(receiver);
            } else {
                Signals.setValue(receiver, null);
            }
        }
    }

    private static final VarHandle PHASE;
    private static final VarHandle DRIVER;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            PHASE = l.findVarHandle(RunLoop.class, "phase", int.class);
            DRIVER = l.findVarHandle(RunLoop.class, "driver", Thread.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
