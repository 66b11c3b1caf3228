package dev.senders.scope;

import dev.senders.Env;
import dev.senders.Hooks;
import dev.senders.InplaceStopSource;
import dev.senders.OperationState;
import dev.senders.ProtocolViolationException;
import dev.senders.Query;
import dev.senders.Receiver;
import dev.senders.Sender;
import dev.senders.StopCallback;
import dev.senders.StopToken;
import dev.senders.internal.signal.Connect;
import dev.senders.internal.signal.ImmediateOperation;
import dev.senders.internal.signal.OwnEnvReceiver;
import dev.senders.internal.signal.Signals;
import dev.senders.scope.internal.SpawnedWork;
import dev.senders.internal.Trampoline;
import dev.senders.internal.VarHandles;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.ref.Reference;
import java.util.Arrays;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import dev.senders.internal.Nulls;

/**
 * The future sender of {@link Scopes#spawnFuture} ({@code future-sender}, P3149R6
 * [exec.spawn.future]). Single-shot.
 *
 * <p>One object plays every role of a future whose work needs no leak tracking: the receiver of
 * the spawned work, the work's env and stop token, the rendezvous with the consumer, the sender
 * handed to the caller and the consumer's operation. Its receiver, env and stop-token methods are
 * implementation details, not API: a caller that completes it from outside is a second completion
 * and is reported as such.
 */
final class SpawnFuture<T> implements Sender<T>, OperationState, OwnEnvReceiver<T>, StopToken, Runnable {
    /*
     * The state word is a set of bits, each set once, by CAS or atomic OR:
     *   CONNECTED   1   the future was connected (a second connect throws); consumer written after it
     *   RESULT      2   the work completed; kind/result are written before this bit
     *   STARTED     4   the consumer's operation was started; consumerCallback written before this bit
     *   DONE        8   the consumer was (or is being) completed: whoever sets it delivers, exactly once
     *   ABANDONED  16   the future became unreachable unconsumed (Cleaner, see Tracked)
     *   CLAIMED    32   the work's first completion (a second one is a protocol violation)
     *   STOP       64   stop was requested on the work's token (consumer stop, abandonment, env's token)
     *   OP_STARTED 128  start() was called (a second call throws); STARTED is also set by an early stop
     * The three racers: the work's completion (sets RESULT; if STARTED and not DONE also sets DONE
     * and delivers the result), the consumer's start (registers its stop callback, then sets STARTED;
     * if RESULT is already there also sets DONE and delivers inline) and the consumer's stop callback
     * (sets DONE if not set, requests stop on the work and completes the consumer stopped at once,
     * without waiting for the work). A stop only races work still running: a consumer started when
     * RESULT is already set gets the result, whatever its token says (as stdexec's
     * spawn_future lets the consumer take a result that is there). An error that nobody takes
     * (the consumer was stopped first, or the future was dropped) goes to the scope's error handler
     * chain, as a spawned error does. The scope's count is held until the work itself
     * completes, however the consumer ends.
     *
     * The work's stop token is this object: stopRequested reads the STOP bit, and an
     * InplaceStopSource for callbacks is created only when the work registers one. A
     * registration publishes the source (CAS) and then reads STOP; a stop request sets STOP and then
     * reads the source: with both sides volatile, at least one of them sees the other and calls the
     * (idempotent) requestStop of the source.
     *
     * Leak tracking without a Cleaner registration per future. A dropped, unconsumed future
     * must stop its work and must not lose its error. Neither can happen if the work already ended with
     * a value or stopped when spawnFuture returns (the common case of inline work): this object
     * is then returned as is, and nothing is registered. Otherwise the caller gets a Tracked
     * handle, the reachability target, which joins a Batch of up to LeakBatch.SIZE handles
     * created by the same thread; the batch, not each handle, is registered with the Cleaner, whose
     * action abandons the members that were never started. A started handle leaves its batch (clears
     * its slot and its reference to the batch), so only unconsumed reachable futures delay the report
     * of their dropped batch-mates.
     */

    static final int CONNECTED = 1, RESULT = 2, STARTED = 4, DONE = 8, ABANDONED = 16, CLAIMED = 32, STOP = 64,
            OP_STARTED = 128;
    static final int VALUE = 1, ERROR = 2, STOPPED = 3;

    private final AsyncScopeToken token;
    /** The env the work sees, apart from the stop token (which is this object). */
    private final Env base;
    /** The registration on {@code base}'s stop token, if it can stop; closed when the work ends. */
    private @Nullable StopCallback outerCallback;
    /** Created on the work's first {@link #onStop}; see the class notes. */
    private volatile @Nullable InplaceStopSource source;
    volatile int state;
    private int kind;
    /** The value or the error, until delivered. */
    private @Nullable Object result;
    /** Written in connect, before start; cleared once completed. */
    private @Nullable Receiver<? super T> consumer;
    private @Nullable StopCallback consumerCallback;

    private SpawnFuture(AsyncScopeToken token, Env base) {
        this.token = token;
        this.base = base;
    }

    static <T> Sender<T> spawn(Sender<T> sender, AsyncScopeToken token, @Nullable Env env) {
        if (!token.tryAssociate()) {
            return unassociated();
        }
        SpawnFuture<T> f;
        try {
            f = new SpawnFuture<>(token, env != null ? env : token.spawnEnv());
        } catch (Throwable t) { // an OutOfMemoryError, or a token's spawnEnv() that threw
            token.dissociate();
            throw t;
        }
        Env base = f.base;
        OperationState op;
        try {
            f.linkOuterStop(); // before connect: a completion during connect must find it to close it
            // the future's token follows base's (linkOuterStop): if that is the scope's token,
            // wrap's stopWhen would add nothing, and spawn skips it (S7)
            Sender<T> w = token.wrap(sender, base);
            op = Connect.checked(Objects.requireNonNull(w, "token.wrap returned null"), f);
        } catch (Throwable t) {
            StopCallback oc = f.outerCallback;
            if (oc != null) {
                oc.close();
            }
            // claim the completion: a work that completed before throwing has released already,
            // and one that completes later is a second completion, reported, releasing nothing
            if (((int) STATE.getAndBitwiseOr(f, CLAIMED) & CLAIMED) == 0) {
                token.dissociate();
            }
            throw t;
        }
        try {
            Trampoline.start(op, f); // inline unless deep in nested starts (a loop of spawns): see Scopes.spawn
        } catch (Throwable t) {
            // a start that throws ends the work with that error, as in Scopes.spawn
            f.startThrew(t);
            Signals.throwIfFatal(t);
        }
        int s = f.state;
        if ((s & RESULT) != 0 && f.kind != ERROR) {
            return f; // dropping it can lose nothing and stop nothing: no leak tracking
        }
        return Batch.track(f);
    }

    @SuppressWarnings("unchecked")
    private static <T> Sender<T> unassociated() {
        return (Sender<T>) UNASSOCIATED;
    }

    private static final Sender<Object> UNASSOCIATED = r -> ImmediateOperation.stopped(Objects.requireNonNull(r, "receiver"));

    private void linkOuterStop() {
        StopToken outer = base.stopToken();
        if (outer.stopPossible()) {
            outerCallback = outer.onStop(this::requestWorkStop);
        }
    }

    // ---- the future (sender) and the consumer's operation

    @Override
    public OperationState connect(Receiver<? super T> receiver) {
        connectConsumer(receiver);
        return this;
    }

    void connectConsumer(Receiver<? super T> receiver) {
        Objects.requireNonNull(receiver, "receiver");
        int s = state;
        for (;;) {
            if ((s & CONNECTED) != 0) {
                throw new IllegalStateException("the sender returned by spawnFuture is single-shot and was"
                        + " already connected: connect it once, or call spawnFuture again for another result");
            }
            int prev = (int) STATE.compareAndExchange(this, s, s | CONNECTED);
            if (prev == s) {
                break;
            }
            s = prev;
        }
        consumer = receiver;
    }

    @Override
    public void start() {
        if (((int) STATE.getAndBitwiseOr(this, OP_STARTED) & OP_STARTED) != 0) {
            throw ImmediateOperation.startedTwice(this);
        }
        Receiver<? super T> r = Nulls.nonNull(consumer); // set in connect
        if ((state & RESULT) == 0) { // a result already there is delivered whatever the consumer's token says
            StopToken st = r.env().stopToken();
            if (st.stopPossible()) {
                consumerCallback = st.onStop(this);
            }
        }
        int s = state;
        for (;;) {
            if ((s & DONE) != 0) {
                return; // the stop callback ran inline and completed the consumer
            }
            boolean ready = (s & RESULT) != 0;
            int ns = s | STARTED | (ready ? DONE : 0);
            int prev = (int) STATE.compareAndExchange(this, s, ns);
            if (prev == s) {
                if (ready) {
                    deliver();
                }
                return;
            }
            s = prev;
        }
    }

    /**
     * The consumer's stop callback: forward the stop, complete the consumer at once. A stop only
     * races work still running: if the result is already there (the callback runs inside
     * {@code start}), the result is delivered.
     */
    @Override
    public void run() {
        int s = state;
        for (;;) {
            if ((s & DONE) != 0) {
                return;
            }
            int prev = (int) STATE.compareAndExchange(this, s, s | DONE | STARTED);
            if (prev == s) {
                break;
            }
            s = prev;
        }
        if ((s & RESULT) != 0) {
            deliver();
            return;
        }
        requestWorkStop();
        StopCallback cb = consumerCallback;
        if (cb != null) {
            cb.close(); // returns at once: we are inside it
        }
        Receiver<? super T> r = Nulls.nonNull(consumer); // the one delivery takes it
        consumer = null;
        Signals.setStopped(r);
        if ((s & RESULT) != 0) {
            dropResult(); // the work had ended: its result goes nowhere now
        }
    }

    /**
     * The consumer was stopped, so the work's result reaches no one: a value is let go, an error
     * goes to {@link Hooks#onErrorDropped} (never silently lost, as Reactor's onErrorDropped and
     * RxJava's undeliverable errors). Called once, by whichever of the stop and the work's
     * completion came second.
     */
    private void dropResult() {
        Object res = result;
        result = null;
        if (kind == ERROR) {
            Hooks.onErrorDropped((Throwable) Nulls.nonNull(res)); // ERROR carries the error
        }
    }

    @SuppressWarnings("unchecked")
    private void deliver() {
        StopCallback cb = consumerCallback;
        if (cb != null) {
            cb.close();
        }
        Receiver<? super T> r = Nulls.nonNull(consumer); // the one delivery takes it
        Object res = result;
        consumer = null; // nothing is retained once delivered
        result = null;
        switch (kind) {
            case VALUE:
                Signals.setValue(r, (T) res);
                break;
            case ERROR:
                Signals.setError(r, (Throwable) Nulls.nonNull(res)); // ERROR carries the error
                break;
            default:
                Signals.setStopped(r);
        }
    }

    // ---- the work's receiver (its env is this object: see get)

    @Override
    public void setValue(@Nullable T v) {
        if (claim("setValue", null)) {
            result = v;
            workDone(VALUE);
        }
    }

    @Override
    public void setError(Throwable e) {
        if (claim("setError", e)) {
            result = e == null ? new NullPointerException("spawnFuture: the work called setError(null)") : e;
            workDone(ERROR);
        }
    }

    /** {@code start()} threw: the work's error, unless it completed first (then reported, never lost). */
    void startThrew(Throwable t) {
        if (((int) STATE.getAndBitwiseOr(this, CLAIMED) & CLAIMED) == 0) {
            result = t;
            workDone(ERROR);
        } else {
            Hooks.onErrorDropped(t);
        }
    }

    @Override
    public void setStopped() {
        if (claim("setStopped", null)) {
            workDone(STOPPED);
        }
    }

    /**
     * The work's first completion sets {@code CLAIMED}; a second one is a protocol violation,
     * reported, and must neither overwrite the result nor release the association again.
     */
    private boolean claim(String signal, @Nullable Throwable error) {
        int prev = (int) STATE.getAndBitwiseOr(this, CLAIMED);
        if ((prev & CLAIMED) == 0) {
            return true;
        }
        Hooks.onErrorDropped(Signals.extraCompletion("spawnFuture: the spawned sender called " + signal
                + " after it had already completed (a sender must deliver exactly one completion per start; the extra signal was ignored)", error));
        return false;
    }

    private void workDone(int k) {
        kind = k;
        Object res = result;
        StopCallback oc = outerCallback;
        if (oc != null) {
            oc.close();
        }
        boolean deliver;
        int s = state;
        for (;;) {
            deliver = (s & STARTED) != 0 && (s & DONE) == 0;
            int ns = s | RESULT | (deliver ? DONE : 0);
            int prev = (int) STATE.compareAndExchange(this, s, ns);
            if (prev == s) {
                break;
            }
            s = prev;
        }
        boolean untaken = !deliver && (s & (DONE | ABANDONED)) != 0; // consumer stopped, or future dropped
        if (untaken) {
            result = null; // the result goes nowhere: hold nothing
        }
        try {
            if (untaken && k == ERROR) {
                routeUntaken((Throwable) Nulls.nonNull(res)); // before the release: a join cannot overtake the handler
            }
        } finally {
            // the work has ended: release the scope before handing the result on
            token.dissociate();
        }
        if (deliver) {
            deliver();
        }
    }

    /**
     * An error nobody takes (the consumer was stopped, or the future dropped) goes where
     * {@link Scopes#spawn}'s errors go: the env's {@link Scopes#SPAWN_ERROR_HANDLER}, the scope's
     * handler, else {@link Hooks#onErrorDropped}; counted by the scope's {@code errorCount()}.
     */
    private void routeUntaken(Throwable error) {
        SpawnedWork.routeError(token, error, base);
    }

    // ---- the work's env and stop token

    @Override
    @SuppressWarnings("unchecked")
    public <V> @Nullable V get(Query<V> query) {
        return query == Query.STOP_TOKEN ? (V) this : base.get(query);
    }

    @Override
    public StopToken stopToken() {
        return this;
    }

    @Override
    public boolean stopRequested() {
        return (state & STOP) != 0;
    }

    @Override
    public boolean stopPossible() {
        return true; // the consumer or abandonment can always request it
    }

    @Override
    public StopCallback onStop(Runnable callback) {
        Objects.requireNonNull(callback, "callback");
        InplaceStopSource src = source;
        if (src == null) {
            InplaceStopSource fresh = new InplaceStopSource();
            src = (InplaceStopSource) SOURCE.compareAndExchange(this, null, fresh);
            if (src == null) {
                src = fresh;
                if ((state & STOP) != 0) {
                    src.requestStop(); // the stop came before the source: the source must show it
                }
            }
        }
        return src.token().onStop(callback);
    }

    /** Requests stop on the work: sets STOP, then runs the callbacks the work registered, if any. */
    void requestWorkStop() {
        int prev = (int) STATE.getAndBitwiseOr(this, STOP);
        if ((prev & STOP) == 0) {
            InplaceStopSource src = source;
            if (src != null) {
                src.requestStop();
            }
        }
    }

    // ---- leak tracking

    /** Cleaner ({@link Batch}): the future became unreachable without its consumer starting. */
    void abandon() {
        int s = state;
        for (;;) {
            if ((s & STARTED) != 0) {
                return;
            }
            int prev = (int) STATE.compareAndExchange(this, s, s | ABANDONED);
            if (prev == s) {
                break;
            }
            s = prev;
        }
        if ((s & RESULT) == 0) {
            requestWorkStop();
        } else if (kind == ERROR) {
            Throwable e = (Throwable) Nulls.nonNull(result); // ERROR carries the error
            result = null;
            routeUntaken(e); // the work ended with an error and the future was dropped: nobody else will see it
        }
    }

    @Override
    public String toString() {
        int s = state;
        return "spawnFuture[" + ((s & RESULT) != 0 ? "completed" : "running")
                + ((s & CONNECTED) != 0 ? ", connected" : "") + ((s & STOP) != 0 ? ", stop requested" : "") + "]";
    }

    /**
     * The future handed out when dropping it must be noticed (the work still runs, or it failed):
     * the reachability target of the Cleaner, through its {@link Batch}. It is also the consumer's
     * operation, so a connected but never started future is noticed when the operation is dropped.
     */
    static final class Tracked<T> implements Sender<T>, OperationState {
        private final SpawnFuture<T> future;
        /** Held until started: while it is held, the batch cannot be collected. */
        private @Nullable Batch batch;
        private final int slot;

        Tracked(SpawnFuture<T> future, Batch batch, int slot) {
            this.future = future;
            this.batch = batch;
            this.slot = slot;
        }

        @Override
        public OperationState connect(Receiver<? super T> receiver) {
            future.connectConsumer(receiver);
            return this;
        }

        @Override
        public void start() {
            future.start();
            // started: nothing left to abandon; leave the batch so as not to delay batch-mates' reports
            Batch b = batch;
            if (b != null) {
                batch = null;
                // the array may have grown since: then the old slot is cleared and the copy keeps
                // a started future, which the Cleaner's abandon() ignores (STARTED)
                SLOTS.setRelease(b.members.slots, slot, (SpawnFuture<?>) null);
            }
            Reference.reachabilityFence(this);
        }

        @Override
        public String toString() {
            return future.toString();
        }
    }

    /**
     * One Cleaner registration ({@link LeakBatch}) for up to {@link LeakBatch#SIZE} tracked futures
     * of one thread, whatever their scopes. Every unstarted {@link Tracked} of the batch holds it.
     * {@link Members}, the Cleaner action, holds the members' states, which the work references
     * anyway while it runs.
     */
    static final class Batch extends LeakBatch {
        private static final LeakBatch.Cache<Batch> CACHE = new LeakBatch.Cache<>(key -> new Batch(new Members()));

        final Members members;

        private Batch(Members members) {
            super(null, members);
            this.members = members;
        }

        static <T> Tracked<T> track(SpawnFuture<T> f) {
            Batch b = CACHE.join(null);
            int i = b.size() - 1;
            SpawnFuture<?>[] a = b.members.slots;
            if (i == a.length) {
                // grown on demand: a thread that tracks few futures per GC cycle (a virtual thread,
                // a lightly used pool thread) does not pay for 1,024 slots
                a = Arrays.copyOf(a, Math.min(a.length * 8, SIZE)); // 16, 128, 1,024: few copies
                b.members.slots = a;
            }
            SLOTS.setRelease(a, i, f);
            return new Tracked<>(f, b, i);
        }
    }

    /** The Cleaner action of a {@link Batch}: abandons every member that was never started. */
    static final class Members implements Runnable {
        /** Replaced (grown) only by the thread that owns the batch. */
        volatile SpawnFuture<?>[] slots = new SpawnFuture<?>[16];

        @Override
        public void run() {
            SpawnFuture<?>[] slots = this.slots;
            for (int i = 0; i < slots.length; i++) {
                SpawnFuture<?> f = (SpawnFuture<?>) SLOTS.getAcquire(slots, i);
                if (f == null) {
                    continue;
                }
                slots[i] = null;
                try {
                    f.abandon();
                } catch (Throwable t) {
                    Signals.throwIfFatal(t);
                    Hooks.onErrorDropped(t); // one failure must not keep the other members from their report
                }
            }
        }
    }

    private static final VarHandle STATE = VarHandles.field(MethodHandles.lookup(), SpawnFuture.class, "state", int.class);
    private static final VarHandle SOURCE = VarHandles.field(MethodHandles.lookup(), SpawnFuture.class, "source", InplaceStopSource.class);
    private static final VarHandle SLOTS = MethodHandles.arrayElementVarHandle(SpawnFuture[].class);
}
