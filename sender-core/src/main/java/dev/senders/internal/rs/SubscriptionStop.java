package dev.senders.internal.rs;

import dev.senders.internal.signal.Signals;
import dev.senders.Hooks;
import dev.senders.InplaceStopSource;
import dev.senders.StopCallback;
import dev.senders.StopToken;
import dev.senders.internal.VarHandles;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Objects;
import java.util.concurrent.locks.LockSupport;
import org.jspecify.annotations.Nullable;
import dev.senders.internal.Nulls;

/**
 * The stop token of one adapter subscription, built into the subscription object itself: the
 * subscription's cancel is {@link #requestStop()}, the sender it runs sees {@code this} as its
 * receiver's stop token. Same contract as an {@link InplaceStopSource}'s token ({@link StopToken},
 * {@link StopCallback}): the first {@code requestStop} runs every registered callback once on its
 * thread; a callback registered after that runs inline; {@code close()} deregisters and, if the
 * callback is running on another thread, waits (parks) until it has returned.
 *
 * <p>Why: the sender run by a subscription registers one stop callback in the common case (the
 * operation that subscribes upstream). Here that first registration is a field of the subscription
 * (one CAS to register, one to close) instead of a separate {@code InplaceStopSource}, its token
 * and a callback node; only a second registration creates a real {@code InplaceStopSource} (the
 * overflow).
 */
public abstract class SubscriptionStop implements StopToken, StopCallback {
    /*
     * One word, slot, holds the first registration and the stop state:
     *   null            no stop requested, slot free
     *   a Runnable      no stop requested, the slot's callback is registered
     *   CLOSED          no stop requested, the slot's registration was closed (the slot is used once)
     *   a Running       stop requested, the slot's callback is running on Running.runner
     *   STOPPED         stop requested, the slot's callback (if any) finished or never was
     * The stopper and the closer race on that word alone (a CAS each). Closers of a running callback
     * wait on the Running record (allocated only on stop) exactly as InplaceStopSource
     * nodes do: push on waiters, re-check done, park. Because the slot is used once,
     * close() on this can only concern the slot's registration; later registrations go
     * to overflow, created on first need. A stopper that swapped the slot before an overflow
     * was published would miss it, so a registrant re-checks slot after registering there and
     * requests stop on the overflow itself (requestStop is idempotent): with both words
     * volatile, either the stopper sees the overflow or the registrant sees the stop.
     *
     * Extended by SenderSubscription, the one subscription of every sender-to-publisher
     * conversion (Flow, Reactor, RxJava; not public API); the jcstress tests ToMonoStop* check
     * it through ReactorSenders.toMono.
     */

    private static final Object CLOSED = new Object();
    private static final Object STOPPED = new Object();
    private static final StopCallback NOTHING = () -> {};

    private volatile @Nullable Object slot;
    private volatile @Nullable InplaceStopSource overflow;

    /**
     * Requests stop: runs the registered callbacks on this thread; {@code false} if already requested.
     *
     * @return {@code true} if this call requested stop, {@code false} if it was already requested
     */
    protected final boolean requestStop() {
        for (;;) {
            Object s = slot;
            if (s == STOPPED || s instanceof Running) {
                return false;
            }
            if (s instanceof Runnable) {
                Running run = new Running(Thread.currentThread());
                if (SLOT.compareAndSet(this, s, run)) {
                    try {
                        ((Runnable) s).run();
                    } catch (Throwable t) {
                        Signals.throwIfFatal(t);
                        Hooks.onErrorDropped(t);
                    } finally {
                        slot = STOPPED;
                        run.finish();
                    }
                    break;
                }
            } else if (SLOT.compareAndSet(this, s, STOPPED)) { // null or CLOSED
                break;
            }
        }
        InplaceStopSource o = overflow;
        if (o != null) {
            o.requestStop();
        }
        return true;
    }

    @Override
    public final boolean stopRequested() {
        Object s = slot;
        return s == STOPPED || s instanceof Running;
    }

    @Override
    public final boolean stopPossible() {
        return true;
    }

    @Override
    public final StopCallback onStop(Runnable callback) {
        Objects.requireNonNull(callback, "callback");
        for (;;) {
            Object s = slot;
            if (s == null) {
                if (SLOT.compareAndSet(this, null, callback)) {
                    return this;
                }
            } else if (s == STOPPED || s instanceof Running) {
                try {
                    callback.run();
                } catch (Throwable t) {
                    Signals.throwIfFatal(t);
                    Hooks.onErrorDropped(t);
                }
                return NOTHING;
            } else {
                return registerOverflow(callback);
            }
        }
    }

    private StopCallback registerOverflow(Runnable callback) {
        InplaceStopSource o = overflow;
        if (o == null) {
            InplaceStopSource fresh = new InplaceStopSource();
            o = OVERFLOW.compareAndSet(this, null, fresh) ? fresh : Nulls.nonNull(overflow); // set once, never cleared
        }
        StopCallback c = o.token().onStop(callback);
        if (stopRequested()) {
            o.requestStop(); // the stopper may have read `overflow` before we published it
        }
        return c;
    }

    /** Deregisters the slot's callback (the only registration {@code this} is the handle of). */
    @Override
    public final void close() {
        for (;;) {
            Object s = slot;
            if (s instanceof Runnable) {
                if (SLOT.compareAndSet(this, s, CLOSED)) {
                    return;
                }
            } else {
                if (s instanceof Running && ((Running) s).runner != Thread.currentThread()) {
                    ((Running) s).awaitDone();
                }
                return; // CLOSED, STOPPED, or closing from inside the callback itself
            }
        }
    }

    /** The slot's callback running on the stopper's thread; closers wait here. */
    static final class Running {
        final Thread runner;
        volatile boolean done;
        volatile @Nullable Waiter waiters;

        Running(Thread runner) {
            this.runner = runner;
        }

        void finish() {
            done = true;
            for (Waiter w = (Waiter) WAITERS.getAndSet(this, null); w != null; w = w.next) {
                LockSupport.unpark(w.thread);
            }
        }

        /** As InplaceStopSource's nodes: push, then re-check {@code done}, so no wake-up is lost. */
        void awaitDone() {
            Thread me = Thread.currentThread();
            Waiter w = new Waiter(me);
            do {
                w.next = waiters;
            } while (!WAITERS.compareAndSet(this, w.next, w));
            boolean interrupted = false;
            while (!done) {
                LockSupport.park(this);
                if (Thread.interrupted()) {
                    interrupted = true;
                }
            }
            if (interrupted) {
                me.interrupt();
            }
        }
    }

    static final class Waiter {
        final Thread thread;
        @Nullable Waiter next;

        Waiter(Thread thread) {
            this.thread = thread;
        }
    }

    private static final VarHandle SLOT = VarHandles.field(MethodHandles.lookup(), SubscriptionStop.class, "slot", Object.class);
    private static final VarHandle OVERFLOW = VarHandles.field(MethodHandles.lookup(), SubscriptionStop.class, "overflow", InplaceStopSource.class);
    private static final VarHandle WAITERS = VarHandles.field(MethodHandles.lookup(), Running.class, "waiters", Waiter.class);
}
