package dev.senders.scope;

import dev.senders.Env;
import dev.senders.Hooks;
import dev.senders.InplaceStopSource;
import dev.senders.Query;
import dev.senders.Sender;
import dev.senders.StopCallback;
import dev.senders.internal.Jfr;
import dev.senders.internal.VarHandles;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.ref.Cleaner;
import java.util.Objects;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * The state machine shared by {@link SimpleCountingScope}, {@link CountingScope} and
 * {@code letAsyncScope}; it is also their {@link AsyncScopeToken}. Package-private: the public
 * scope classes are thin handles on it, so that a handle can become unreachable (and be reported
 * as leaked) while tokens and work still reference the core.
 *
 * <p>The word: count, state and the idle waiters' epoch are one {@code long}, {@code word},
 * changed only by CAS:
 * <pre>
 *   bits 63..20  count of associated operations (44 bits, never negative)
 *   bits 19..5   idle epoch: how many times the count reached zero with idle waiters (mod 2^15)
 *   bit  4       CAPACITY_WAITERS: some {@code spawnWhenAvailable} waits for room (the count at
 *                {@code maxOutstanding})
 *   bit  3       IDLE_WAITERS: some {@code whenIdle} waits for the count to reach zero
 *   bits  2..0   state: the ordinal of {@link ScopeState}
 *                0 UNUSED, 1 OPEN, 2 CLOSED, 3 OPEN_AND_JOINING, 4 CLOSED_AND_JOINING,
 *                5 UNUSED_AND_CLOSED, 6 JOINED
 * </pre>
 * Invariant: IDLE_WAITERS is clear whenever the count is zero. Every transition of the scope's
 * state diagram is one CAS on the word; no other is possible. The operations that wait on the
 * scope (joins, idle waits, producers waiting for room) are {@link ScopeWaiters}; names, refusals,
 * tracked work and the leak check are {@link ScopeDiagnostics}.
 *
 * @see <a href="https://wg21.link/P3149">P3149, the counting scopes' state diagram</a>
 */
final class ScopeCore implements AsyncScopeToken {
    /*
     * Transitions. tryAssociate is one CAS (count + 1, UNUSED becomes OPEN; fails in a closed state, and
     * when the count has reached maxOutstanding: the limit is checked against the very word
     * the CAS replaces, so racing associations never overshoot it). dissociate is one CAS
     * (count - 1; when that reaches zero in a joining state the same CAS moves to JOINED, and when
     * IDLE_WAITERS is set the same CAS clears it and advances the epoch). close and the start
     * of a join are CASes on the state bits.
     *
     * Capacity waiters (Scopes.spawnWhenAvailable) register on capacity, an
     * InplaceStopSource used as a one-shot "room was made" broadcast, then set
     * CAPACITY_WAITERS by a CAS that also checks the scope is still open and full. Any dissociation
     * (and close) that finds the bit clears it in its CAS, then swaps the signal out and fires
     * it; setMaxOutstanding fires it too. Woken waiters simply try to associate again, so a
     * wake-up may be spurious but none is lost: a waiter either sees room (or a closed scope) after
     * its registration, or its bit is in the word that the next dissociation replaces.
     *
     * Idle waiters (whenIdle) register on the IdleSignal of the current
     * epoch (an InplaceStopSource used as a one-shot broadcast, tagged with its epoch, in the
     * field idle; installed by the first waiter of an epoch), and then set
     * IDLE_WAITERS by a CAS that also checks the epoch is unchanged and the count above zero. The
     * dissociation that brings the count to zero with the bit set advances the epoch in its CAS and
     * then fires the signal of the epoch it ended. So a waiter either finds the count zero (and
     * completes at once, unregistered), or its registration precedes a zero that will fire it; a
     * signal of an ended epoch never takes a registration that the zero preceded: a waiter that finds
     * the installed signal's epoch behind the word's fires that signal (idempotent) and installs a new
     * one. "Idle" therefore means: the count was zero at some moment after the wait started (work
     * spawned right after that moment does not hold the waiter back; work spawned before it does).
     *
     * Join waiters are callbacks registered on joined, an InplaceStopSource
     * used as a one-shot broadcast ("the scope is joined"), apart from the word and created by the
     * first join that waits. A starting join registers itself first and then moves the state
     * to X_AND_JOINING (or to JOINED if it observes a zero count). Whoever moves the state to JOINED
     * then fires joined, which runs every registered join once; a join registering after that
     * runs at once. Because the registration precedes the state change and the firing follows the
     * move to JOINED, no join can be left behind (a join that finds the state JOINED fires
     * joined itself: firing is idempotent, and covers a source created after the mover read
     * the field). A join stopped while it waits deregisters (amortized O(1), see
     * InplaceStopSource), so abandoned joins retain nothing; each join (ScopeWaiters.Join)
     * decides between "joined" and "stopped" with one CAS on its own state word.
     *
     * Observability (names, refusals, the dump, creation sites) lives in a side object,
     * ScopeDiagnostics, created only for named scopes, under debug capture, or on first use;
     * the word and the spawn path are untouched by it. The wrap methods return a
     * TrackedSender for named work and, while debug capture is on or a flight recording
     * wants per-work events, for all work; otherwise the sender itself or its stop wrap (the
     * tracking costs one instanceof and two flag reads per spawn).
     */

    static final int UNUSED = 0, OPEN = 1, CLOSED = 2, OPEN_AND_JOINING = 3, CLOSED_AND_JOINING = 4,
            UNUSED_AND_CLOSED = 5, JOINED = 6;
    static final long STATE_MASK = 7L;
    static final long IDLE_WAITERS = 1L << 3;
    static final long CAPACITY_WAITERS = 1L << 4;
    static final long EPOCH_ONE = 1L << 5;
    static final long EPOCH_MASK = 0x7FFFL << 5;
    static final int COUNT_SHIFT = 20;
    static final long ONE = 1L << COUNT_SHIFT;
    /** {@code maxOutstanding} of a scope without a limit. */
    static final long UNBOUNDED = Long.MAX_VALUE;
    private static final ScopeState[] STATES = ScopeState.values();

    /** Shared by every scope, nest sender and future of the library; its daemon thread runs reports. */
    static final Cleaner CLEANER = Cleaner.create();

    private volatile long word;
    /** Fired once the scope is JOINED; null until the first join that waits. See the class notes. */
    private volatile @Nullable InplaceStopSource joined;
    /** The current epoch's idle signal, or null; see the class notes. */
    private volatile @Nullable IdleSignal idle;
    /** Fired when room is made for capacity waiters; null when none waits. See the class notes. */
    private volatile @Nullable InplaceStopSource capacity;
    /** The most operations associated at once; {@link #UNBOUNDED} when there is no limit. */
    private volatile long maxOutstanding = UNBOUNDED;
    private volatile long errorCount;

    /** "SimpleCountingScope", "CountingScope" or "letAsyncScope"; {@link #name()} adds the identity. */
    private final String kind;
    /** Non-null for counting scopes: {@link #wrap} adds its token. */
    final @Nullable InplaceStopSource stopSource;
    /** The handler for errors of spawned work; null means {@link Hooks#onErrorDropped}. */
    private final @Nullable Consumer<? super Throwable> errorHandler;

    /**
     * What the receiver of spawned work offers when the caller passes no env ({@link #spawnEnv()}).
     * A stoppable scope's binds the scope's stop token, so that spawn can skip {@code stopWhen}
     * (see {@link #wrap(Sender, Env)}).
     */
    volatile Env spawnEnv;

    /**
     * When set, {@link #errorHandler} wins over an env's handler (letAsyncScope's error rule); it
     * also marks letAsyncScope's internal scope, whose errors are the sender's result and which
     * emits no join events.
     */
    private final boolean strictHandler;

    /**
     * The public handle ({@code SimpleCountingScope}/{@code CountingScope}) until the first
     * association registers its leak check with the {@link #CLEANER}; null afterwards, and for
     * letAsyncScope's scope. A scope that was never used cannot leak, so one created, closed and
     * joined without work costs no registration; until the first use the core keeps the handle,
     * so that a token used after its handle was dropped still gets the handle watched.
     */
    private volatile @Nullable Object unwatched;

    /** Name, creation site, refusals, tracked work: null until needed (see {@link ScopeDiagnostics}). */
    private volatile @Nullable ScopeDiagnostics diag;

    ScopeCore(String kind, boolean stoppable, @Nullable Consumer<? super Throwable> errorHandler) {
        this(kind, stoppable, errorHandler, false);
    }

    ScopeCore(String kind, boolean stoppable, @Nullable Consumer<? super Throwable> errorHandler, boolean strictHandler) {
        this.kind = kind;
        InplaceStopSource source = stoppable ? new InplaceStopSource() : null;
        this.stopSource = source;
        this.errorHandler = errorHandler;
        this.strictHandler = strictHandler;
        this.spawnEnv = source != null ? Env.of(Query.STOP_TOKEN, source.token()) : Env.empty();
    }

    /**
     * A public scope's core: {@code name} may be null (a name is generated); under debug capture
     * the creation site is recorded for leak reports.
     */
    static ScopeCore forScope(String kind, @Nullable String name, boolean stoppable, @Nullable Consumer<? super Throwable> errorHandler) {
        ScopeCore c = new ScopeCore(kind, stoppable, errorHandler, false);
        boolean capture = Hooks.isDebugCaptureEnabled();
        if (name != null || capture) {
            c.diag = new ScopeDiagnostics(name, capture ? ScopeTrace.ofCreation(name != null ? name : c.name()) : null);
        }
        return c;
    }

    // ------------------------------------------------------------------ token

    /** Results of {@link #associate()}. */
    static final int ASSOCIATED = 0, REFUSED_CLOSED = 1, REFUSED_FULL = 2;

    @Override
    public boolean tryAssociate() {
        int r = associate();
        if (r == ASSOCIATED) {
            return true;
        }
        refused(r);
        return false;
    }

    void refused(int result) {
        diagnostics().refused(result == REFUSED_FULL ? RefusalReason.FULL : RefusalReason.CLOSED);
    }

    /** {@code tryAssociate} without counting a refusal: {@link #ASSOCIATED}, or why not. */
    int associate() {
        long w = word;
        for (;;) {
            int s = (int) (w & STATE_MASK);
            long nw;
            if (s == OPEN || s == OPEN_AND_JOINING) {
                if ((w >>> COUNT_SHIFT) >= maxOutstanding) {
                    return REFUSED_FULL;
                }
                nw = w + ONE;
            } else if (s == UNUSED) { // the count is zero: within any limit
                nw = (w + ONE) & ~STATE_MASK | OPEN;
                if (WORD.compareAndSet(this, w, nw)) {
                    watchHandle(); // the first association: only this thread sees UNUSED -> OPEN
                    return ASSOCIATED;
                }
                w = word;
                continue;
            } else {
                return REFUSED_CLOSED;
            }
            long prev = (long) WORD.compareAndExchange(this, w, nw);
            if (prev == w) {
                return ASSOCIATED;
            }
            w = prev;
        }
    }

    /** Keeps {@code handle} until the first association; see {@link #unwatched}. */
    void watch(Object handle) {
        unwatched = handle;
    }

    private void watchHandle() {
        Object h = unwatched;
        if (h != null) {
            try {
                CLEANER.register(h, new ScopeDiagnostics.LeakCheck(this));
            } catch (Throwable t) { // an OutOfMemoryError: undo the association, so that none is left behind
                dissociate();
                throw t;
            }
            unwatched = null;
        }
    }

    @Override
    public void dissociate() {
        long w = word;
        for (;;) {
            long c = w >>> COUNT_SHIFT;
            if (c == 0) {
                throw new IllegalStateException(name() + ": dissociate() without a matching successful"
                        + " tryAssociate() (state " + STATES[(int) (w & STATE_MASK)] + ", count 0)");
            }
            long nw = w - ONE;
            boolean room = (w & CAPACITY_WAITERS) != 0;
            if (room) {
                nw &= ~CAPACITY_WAITERS;
            }
            boolean last = false, idleNow = false;
            if (c == 1) {
                int s = (int) (w & STATE_MASK);
                last = s == OPEN_AND_JOINING || s == CLOSED_AND_JOINING;
                if (last) {
                    nw = nw & ~STATE_MASK | JOINED;
                }
                idleNow = (w & IDLE_WAITERS) != 0;
                if (idleNow) { // clear the bit and end the epoch, in this CAS
                    nw = nw & ~(IDLE_WAITERS | EPOCH_MASK) | ((w + EPOCH_ONE) & EPOCH_MASK);
                }
            }
            long prev = (long) WORD.compareAndExchange(this, w, nw);
            if (prev == w) {
                if (room) {
                    fireCapacity();
                }
                if (idleNow) {
                    fireIdle(w & EPOCH_MASK);
                }
                if (last) {
                    fireJoined();
                }
                return;
            }
            w = prev;
        }
    }

    /**
     * {@code wrap} for work whose receiver offers {@code env} (spawn and spawnFuture): when that
     * env's stop token is already this scope's, {@code stopWhen(sender, scopeToken)} would give the
     * work the very token it sees anyway, so the sender is used as is (no stopWhen operation per
     * spawn). Spawn into a {@code CountingScope} with its default env ({@link #spawnEnv()}), and
     * into a {@code letAsyncScope}, take this path: spawn skips the scope's stop wrap when the
     * receiver already offers the scope's own stop token (S7).
     */
    @Override
    public <T> Sender<T> wrap(Sender<T> sender, @Nullable Env env) {
        Objects.requireNonNull(sender, "sender");
        if (sender instanceof NamedSender || trackAll()) {
            return TrackedSender.of(this, sender, env, TrackedSender.SPAWN);
        }
        return stopWrap(sender, env);
    }

    /** The untracked {@code wrap(sender, env)}; {@code env} null: always add the scope's stop. */
    <T> Sender<T> stopWrap(Sender<T> sender, @Nullable Env env) {
        return stopSource == null || env != null && env.stopToken() == stopSource.token()
                ? sender : sender.stopWhen(stopSource.token());
    }

    @Override
    public <T> Sender<T> wrap(Sender<T> sender) {
        Objects.requireNonNull(sender, "sender");
        if (sender instanceof NamedSender || trackAll()) {
            return TrackedSender.of(this, sender, null, TrackedSender.NEST);
        }
        return stopWrap(sender, null);
    }

    @Override
    public Env spawnEnv() {
        return spawnEnv;
    }

    /** Whether all work is tracked now, named or not: debug capture, or a recording of work events. */
    private static boolean trackAll() {
        return Hooks.isDebugCaptureEnabled() || Jfr.workEventsEnabled();
    }

    // ------------------------------------------------------------------ scope operations

    void close() {
        long w = word;
        for (;;) {
            int s = (int) (w & STATE_MASK);
            int ns;
            switch (s) {
                case UNUSED: ns = UNUSED_AND_CLOSED; break;
                case OPEN: ns = CLOSED; break;
                case OPEN_AND_JOINING: ns = CLOSED_AND_JOINING; break;
                default: return; // already closed: close() is idempotent
            }
            long prev = (long) WORD.compareAndExchange(this, w, w & ~(STATE_MASK | CAPACITY_WAITERS) | ns);
            if (prev == w) {
                if ((w & CAPACITY_WAITERS) != 0) {
                    fireCapacity(); // waiting producers learn that the scope closed
                }
                return;
            }
            w = prev;
        }
    }

    ScopeState state() {
        return STATES[(int) (word & STATE_MASK)];
    }

    /** Whether the scope is JOINED (a state it never leaves). */
    boolean isJoined() {
        return (word & STATE_MASK) == JOINED;
    }

    /** The count of associated operations and the state, as one read of the word: for reports. */
    long word() {
        return word;
    }

    static ScopeState stateOf(long word) {
        return STATES[(int) (word & STATE_MASK)];
    }

    /** Whether joins emit JFR join events: a public scope's do, letAsyncScope's internal one's do not. */
    boolean emitsJoinEvents() {
        return !strictHandler;
    }

    /** The side object if created, else null (no allocation). */
    @Nullable ScopeDiagnostics diagnosticsIfAny() {
        return diag;
    }

    long count() {
        return word >>> COUNT_SHIFT;
    }

    long maxOutstanding() {
        return maxOutstanding;
    }

    /**
     * Lowering the limit refuses new work until the count is below the new limit (work already
     * associated is not touched); an association racing with the change may still be checked
     * against the old limit.
     */
    void setMaxOutstanding(long max) {
        maxOutstanding = checkMaxOutstanding(max);
        if (capacity != null) {
            fireCapacity(); // a raised limit may make room: waiters try again
        }
    }

    /** Whether {@code w} is an open scope at its limit (the only state in which a producer waits). */
    private boolean fullAndOpen(long w) {
        int s = (int) (w & STATE_MASK);
        return (s == OPEN || s == OPEN_AND_JOINING) && (w >>> COUNT_SHIFT) >= maxOutstanding;
    }

    /**
     * Registers {@code waiter} to run when room may have been made (see the class notes): returns
     * its registration, or null when the scope is not full and open now (nothing registered; try
     * to associate again). The waiter may run inline, on this thread, before this returns.
     */
    @Nullable StopCallback awaitCapacity(Runnable waiter) {
        for (;;) {
            if (!fullAndOpen(word)) {
                return null;
            }
            StopCallback reg = signal(CAPACITY).token().onStop(waiter);
            long w = word; // after the registration: the Dekker pair with dissociate's CAS then swap
            for (;;) {
                if (!fullAndOpen(w)) {
                    reg.close();
                    return null;
                }
                if ((w & CAPACITY_WAITERS) != 0) {
                    return reg; // the next dissociation (or close) fires the signal current then
                }
                long prev = (long) WORD.compareAndExchange(this, w, w | CAPACITY_WAITERS);
                if (prev == w) {
                    return reg;
                }
                w = prev;
            }
        }
    }

    private void fireCapacity() {
        InplaceStopSource sig = (InplaceStopSource) CAPACITY.getAndSet(this, null);
        if (sig != null) {
            sig.requestStop();
        }
    }

    static long checkMaxOutstanding(long max) {
        if (max < 1) {
            throw new IllegalArgumentException("maxOutstanding must be at least 1 (it is the most operations"
                    + " the scope holds at once; use Long.MAX_VALUE for no limit), got " + max);
        }
        return max;
    }

    long errorCount() {
        return errorCount;
    }

    long refusedCount() {
        ScopeDiagnostics d = diag;
        return d == null ? 0L : d.refusedCount(RefusalReason.CLOSED) + d.refusedCount(RefusalReason.FULL);
    }

    long refusedCount(RefusalReason reason) {
        Objects.requireNonNull(reason, "reason");
        ScopeDiagnostics d = diag;
        return d == null ? 0L : d.refusedCount(reason);
    }

    /** The side object, created on first need (a lost race adopts the winner's). */
    ScopeDiagnostics diagnostics() {
        ScopeDiagnostics d = diag;
        if (d == null) {
            d = new ScopeDiagnostics(null, null);
            ScopeDiagnostics prev = (ScopeDiagnostics) DIAG.compareAndExchange(this, null, d);
            if (prev != null) {
                d = prev;
            }
        }
        return d;
    }

    /** The running tracked work, oldest first (empty when nothing is tracked). */
    java.util.List<OutstandingWork> outstanding() {
        ScopeDiagnostics d = diag;
        return d == null ? java.util.List.of() : d.snapshot(name());
    }

    /**
     * Routes an error of spawned work: the env's {@link Scopes#SPAWN_ERROR_HANDLER} (unless this
     * is a letAsyncScope, whose rule always applies), else the scope's handler, else the hook;
     * counted either way. A public scope names itself on the error (a {@link ScopeTrace}, unless
     * tracked work already added its own).
     */
    @Override
    public void onSpawnError(Throwable error, Env env) {
        ERROR_COUNT.getAndAdd(this, 1L);
        if (!strictHandler) {
            ScopeTrace.annotate(error, ScopeTrace.ofWork(name(), null, TrackedSender.SPAWN, false));
        }
        Consumer<? super Throwable> h = strictHandler ? null : Scopes.envErrorHandler(error, env);
        Scopes.handleSpawnError(error, h != null ? h : errorHandler);
    }

    Sender<Void> join() {
        return joinSender;
    }

    private final Sender<Void> joinSender = receiver -> ScopeWaiters.join(this, Objects.requireNonNull(receiver, "receiver"));

    /** The source joins register on; created by the first join that needs it. */
    InplaceStopSource joinedSignal() {
        return signal(JOINED_SIGNAL);
    }

    /**
     * The one-shot signal in {@code field} ({@code joined} or {@code capacity}), installed if
     * missing; a lost race adopts the winner's.
     */
    private InplaceStopSource signal(VarHandle field) {
        InplaceStopSource s = (InplaceStopSource) field.getVolatile(this);
        if (s == null) {
            InplaceStopSource fresh = new InplaceStopSource();
            s = (InplaceStopSource) field.compareAndExchange(this, null, fresh);
            if (s == null) {
                s = fresh;
            }
        }
        return s;
    }

    /** Completes every registered join (each once; idempotent). Called after the move to JOINED. */
    private void fireJoined() {
        InplaceStopSource j = joined;
        if (j != null) {
            j.requestStop();
        }
    }

    Sender<Void> whenIdle() {
        return idleSender;
    }

    private final Sender<Void> idleSender = receiver -> ScopeWaiters.whenIdle(this, Objects.requireNonNull(receiver, "receiver"));

    /** An epoch's idle signal: fired once, when the count reaches zero with waiters in that epoch. */
    static final class IdleSignal {
        final long epoch;
        final InplaceStopSource source = new InplaceStopSource();

        IdleSignal(long epoch) {
            this.epoch = epoch;
        }
    }

    /**
     * Registers {@code waiter} to run the next time the count is zero (see the class notes):
     * returns its registration, or null when the count is zero now (then nothing is registered).
     * The waiter may run inline, on this thread, before this returns.
     */
    @Nullable StopCallback awaitIdle(Runnable waiter) {
        for (;;) {
            long w = word;
            if ((w >>> COUNT_SHIFT) == 0) {
                return null;
            }
            long e = w & EPOCH_MASK;
            IdleSignal sig = idleSignal(e);
            if (sig == null) {
                continue; // the epoch ended meanwhile: look again
            }
            StopCallback reg = sig.source.token().onStop(waiter);
            w = word; // after the registration: the Dekker pair with dissociate's CAS then read of `idle`
            for (;;) {
                if ((w & EPOCH_MASK) != e || (w & IDLE_WAITERS) != 0) {
                    return reg; // the end of epoch e fires sig, or has fired it
                }
                if ((w >>> COUNT_SHIFT) == 0) {
                    reg.close(); // idle now, and epoch e never armed: nobody else fires sig for it
                    return null;
                }
                long prev = (long) WORD.compareAndExchange(this, w, w | IDLE_WAITERS);
                if (prev == w) {
                    return reg;
                }
                w = prev;
            }
        }
    }

    /** The signal of epoch {@code e}, installed if missing; null if the word's epoch is no longer {@code e}. */
    private @Nullable IdleSignal idleSignal(long e) {
        for (;;) {
            IdleSignal cur = idle;
            if (cur != null && cur.epoch == e) {
                return cur;
            }
            if ((word & EPOCH_MASK) != e) {
                return null;
            }
            if (cur != null) {
                cur.source.requestStop(); // an ended epoch's signal: fire it (idempotent), then replace it
            }
            IdleSignal fresh = new IdleSignal(e);
            if (IDLE.compareAndSet(this, cur, fresh)) {
                return fresh;
            }
        }
    }

    /** Epoch {@code e} ended (its zero was reached): fire its signal and drop it. */
    private void fireIdle(long e) {
        IdleSignal sig = idle;
        if (sig != null && sig.epoch == e) {
            sig.source.requestStop();
            IDLE.compareAndSet(this, sig, null); // a waiter of the next epoch may have replaced it already
        }
    }

    /** Called by a starting join after it registered: moves to X_AND_JOINING or to JOINED. */
    void startJoin() {
        long w = word;
        for (;;) {
            int s = (int) (w & STATE_MASK);
            if (s == JOINED) {
                fireJoined(); // the mover fires too; whoever comes first runs the joins
                return;
            }
            long nw;
            if ((w >>> COUNT_SHIFT) == 0) {
                nw = w & ~STATE_MASK | JOINED; // includes the stdexec fix: an open scope with count zero joins at once
            } else if (s == OPEN) {
                nw = w & ~STATE_MASK | OPEN_AND_JOINING;
            } else if (s == CLOSED) {
                nw = w & ~STATE_MASK | CLOSED_AND_JOINING;
            } else {
                return; // already joining: we wait with the others
            }
            long prev = (long) WORD.compareAndExchange(this, w, nw);
            if (prev == w) {
                if ((nw & STATE_MASK) == JOINED) {
                    fireJoined();
                }
                return;
            }
            w = prev;
        }
    }

    @Override
    public String toString() {
        long w = word;
        return name() + ".token[" + STATES[(int) (w & STATE_MASK)] + ", count=" + (w >>> COUNT_SHIFT) + "]";
    }

    /**
     * The given name, else {@code kind@identity}, built only when a diagnostic needs it: an
     * unnamed scope's creation stays allocation-light.
     */
    String name() {
        ScopeDiagnostics d = diag;
        return d != null && d.name != null ? d.name : kind + "@" + Integer.toHexString(System.identityHashCode(this));
    }

    private static final VarHandle WORD = VarHandles.field(MethodHandles.lookup(), ScopeCore.class, "word", long.class);
    private static final VarHandle JOINED_SIGNAL = VarHandles.field(MethodHandles.lookup(), ScopeCore.class, "joined", InplaceStopSource.class);
    private static final VarHandle ERROR_COUNT = VarHandles.field(MethodHandles.lookup(), ScopeCore.class, "errorCount", long.class);
    private static final VarHandle DIAG = VarHandles.field(MethodHandles.lookup(), ScopeCore.class, "diag", ScopeDiagnostics.class);
    private static final VarHandle IDLE = VarHandles.field(MethodHandles.lookup(), ScopeCore.class, "idle", IdleSignal.class);
    private static final VarHandle CAPACITY = VarHandles.field(MethodHandles.lookup(), ScopeCore.class, "capacity", InplaceStopSource.class);
}
