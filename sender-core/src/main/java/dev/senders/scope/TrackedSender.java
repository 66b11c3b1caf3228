package dev.senders.scope;

import dev.senders.internal.signal.Connect;
import dev.senders.Env;
import dev.senders.Hooks;
import dev.senders.OperationState;
import dev.senders.ProtocolViolationException;
import dev.senders.Receiver;
import dev.senders.Sender;
import dev.senders.internal.Jfr;
import dev.senders.internal.SharedTimer;
import dev.senders.internal.VarHandles;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Work a scope lists in its dump: what {@code ScopeCore.wrap} returns for named work (see
 * {@link Scopes#named}), and for all work while debug capture is on or a flight recording wants
 * per-work events. Unnamed work with neither costs nothing here: it is not wrapped.
 *
 * <p>Each operation is a node of its scope's outstanding list ({@link ScopeDiagnostics}) from
 * {@code start} to its first completion, and is otherwise transparent: the downstream receiver
 * sees the source's signals unchanged, on the same threads, except that an error gets the work's
 * {@link ScopeTrace} added as suppressed. The node leaves the list (is marked finished) before the
 * completion is forwarded, so by the time the association is released, and so by the time a
 * join completes, the dump no longer shows it.
 */
final class TrackedSender<T> implements Sender<T> {
    /*
     * state: NEW -> RUNNING at start (then pushed on the list),
     * RUNNING -> FINISHED at the first completion (then counted as finished, so the list
     * sweeps it), or NEW -> EARLY for a completion before start (never pushed). One CAS at
     * start, one at completion. The operation does not keep the source's operation after starting it,
     * nor the source sender at all: a finished node waiting to be swept holds only its names and the
     * downstream receiver.
     */

    static final String SPAWN = "spawn", SPAWN_FUTURE = "spawnFuture", NEST = "nest";

    private final Sender<T> source;
    private final ScopeCore scope;
    private final @Nullable String name;
    private final String kind;
    /** A nest's site (debug capture), else null: a spawn's is captured in {@link #connect}. */
    private final @Nullable ScopeTrace site;

    TrackedSender(Sender<T> source, ScopeCore scope, @Nullable String name, String kind, @Nullable ScopeTrace site) {
        this.source = source;
        this.scope = scope;
        this.name = name;
        this.kind = kind;
        this.site = site;
    }

    /**
     * What {@code core.wrap} returns for tracked work: {@code sender} without its
     * {@link NamedSender} layers (the outermost name wins), stop-wrapped as the untracked work
     * would be ({@code env} null: always).
     */
    static <T> Sender<T> of(ScopeCore core, Sender<T> sender, @Nullable Env env, String trackedKind) {
        String workName = null;
        Sender<T> body = sender;
        while (body instanceof NamedSender) {
            NamedSender<T> n = (NamedSender<T>) body;
            if (workName == null) {
                workName = n.name; // the outermost name wins
            }
            body = n.source;
        }
        // a spawn's site is captured when it connects (spawn and spawnFuture connect at once, on
        // this stack), where the receiver tells the two apart; a nest's here, where it is made
        ScopeTrace site = trackedKind == TrackedSender.NEST && Hooks.isDebugCaptureEnabled()
                ? ScopeTrace.ofWork(core.name(), workName, trackedKind, true) : null;
        return new TrackedSender<>(core.stopWrap(body, env), core, workName, trackedKind, site);
    }

    @Override
    public OperationState connect(Receiver<? super T> receiver) {
        Objects.requireNonNull(receiver, "receiver");
        // wrap(sender, env) serves spawn and spawnFuture: the receiver tells which
        String k = kind == SPAWN && receiver instanceof SpawnFuture ? SPAWN_FUTURE : kind;
        ScopeTrace at = kind != NEST && Hooks.isDebugCaptureEnabled() ? ScopeTrace.ofWork(scope.name(), name, k, true) : site;
        Op<T> op = new Op<>(this, k, at, receiver);
        op.child = Connect.checked(source, op);
        return op;
    }

    static final class Op<T> implements OperationState, Receiver<T> {
        static final int NEW = 0, RUNNING = 1, FINISHED = 2, EARLY = 3;

        final ScopeCore scope;
        final @Nullable String name;
        final String kind;
        final @Nullable ScopeTrace site;
        private final Receiver<? super T> downstream;
        @Nullable OperationState child;
        /** The started child when it can wait for a thread ({@link QueuedWork}), else null: asked by views. */
        private @Nullable QueuedWork queueable;
        /** SharedTimer.nanoTime() at start (the virtual clock under test); written before the node is published. */
        long startNanos;
        /** A begun JFR WorkEnd event, or null. */
        private @Nullable Object jfr;
        private volatile int state;
        /** The next (older) node of the outstanding list; rewritten only by the list's sweeper. */
        volatile @Nullable Op<?> next;

        Op(TrackedSender<T> s, String kind, @Nullable ScopeTrace site, Receiver<? super T> downstream) {
            this.scope = s.scope;
            this.name = s.name;
            this.kind = kind;
            this.site = site;
            this.downstream = downstream;
        }

        boolean isRunning() {
            return state == RUNNING;
        }

        /** Started, and waiting for a thread (an executor's task not yet run). */
        boolean isQueued() {
            QueuedWork q = queueable;
            return q != null && q.queued();
        }

        boolean isFinished() {
            return state >= FINISHED;
        }

        @Override
        public void start() {
            OperationState c = child;
            child = null; // the operation lives as long as the work references it, not longer
            if (c == null) {
                throw new ProtocolViolationException(scope.name() + ": start() called twice on an operation of"
                        + " tracked work (start an operation once; connect the sender again for another run)");
            }
            startNanos = SharedTimer.nanoTime();
            if (c instanceof QueuedWork) {
                queueable = (QueuedWork) c; // before the push publishes the node
            }
            if (STATE.compareAndSet(this, NEW, RUNNING)) {
                if (Jfr.workEventsEnabled()) {
                    jfr = Jfr.workStarted(scope.name(), name, kind);
                }
                scope.diagnostics().push(this);
            }
            c.start();
        }

        /** First completion: leave the list; a completion before start only records itself. */
        private void finish(String outcome, @Nullable Throwable error) {
            if (STATE.compareAndSet(this, RUNNING, FINISHED)) {
                scope.diagnostics().finished(this);
                Jfr.workEnded(jfr, outcome, error);
            } else {
                STATE.compareAndSet(this, NEW, EARLY);
            }
        }

        ScopeTrace trace() {
            return site != null ? site : ScopeTrace.ofWork(scope.name(), name, kind, false);
        }

        @Override
        public void setValue(@Nullable T value) {
            finish("value", null);
            downstream.setValue(value);
        }

        @Override
        public void setError(Throwable error) {
            if (error != null) {
                ScopeTrace.annotate(error, trace());
            }
            finish("error", error);
            downstream.setError(error);
        }

        @Override
        public void setStopped() {
            finish("stopped", null);
            downstream.setStopped();
        }

        @Override
        public Env env() {
            return downstream.env();
        }

        private static final VarHandle STATE = VarHandles.field(MethodHandles.lookup(), Op.class, "state", int.class);
    }
}
