package dev.senders.scope.internal;

import dev.senders.internal.Trampoline;
import dev.senders.internal.signal.StopNode;
import dev.senders.internal.signal.Signals;
import dev.senders.internal.signal.ImmediateOperation;
import dev.senders.Env;
import dev.senders.Hooks;
import dev.senders.OperationState;
import dev.senders.ProtocolViolationException;
import dev.senders.Receiver;
import dev.senders.Sender;
import dev.senders.StopCallback;
import dev.senders.StopToken;
import dev.senders.scope.AsyncScopeToken;
import dev.senders.scope.Scopes;
import dev.senders.scope.SpawnDecorator;
import dev.senders.scope.SpawnListener;
import dev.senders.internal.VarHandles;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import org.jspecify.annotations.Nullable;
import dev.senders.internal.Nulls;

/**
 * One subscription to a foreign source (a Reactor {@code Publisher}, an RxJava source) spawned into
 * a scope as one object: the association with the scope, the subscriber (the subclass), the stop
 * registration on the scope's stop token and the {@code Disposable} of the work. Shared by
 * {@code ReactorScopes.spawn} and {@code RxScopes.spawn}; not public API.
 *
 * <p>Spawning takes one of two paths ({@link #directPath}):
 * <ul>
 * <li><b>direct</b>, when the token's {@code wrap} adds nothing to work that sees the token's
 *     {@link AsyncScopeToken#spawnEnv() spawn env} (every token of the library's scopes, and any
 *     token forwarding to one) and that env's stop token can link a {@link StopNode} (or cannot
 *     stop): this object associates itself ({@code tryAssociate}), is its own registration on the
 *     stop token, and at the end routes an error through {@link AsyncScopeToken#onSpawnError} and
 *     calls {@code dissociate()} itself: exactly what {@code Scopes.spawn} with its spawn receiver
 *     does, in one object. A token whose whole decoration is a {@link SpawnListener}
 *     ({@link ListenedToken}) over such a token takes this path too: its listener is told
 *     {@code accepted} on the spawning thread after {@code tryAssociate} succeeded, and
 *     {@code end} exactly once, on the completing thread, before an error is routed and before
 *     the association is released (as the decorated route tells it);
 * <li><b>general</b>, otherwise: a small single-shot {@link Sender} over this object (and its
 *     {@link OperationState}) is handed to {@link Scopes#spawn(Sender, AsyncScopeToken)}, whose
 *     receiver this object completes; the token's {@code wrap} applies. A stop token that cannot link nodes
 *     gets an ordinary {@code onStop} registration, kept in {@code next}.
 * </ul>
 * Either way: a stop requested before the spawn means the source is never subscribed; otherwise
 * it is subscribed at once on the spawning thread, and the work is registered on the stop token
 * only if it has not ended when {@code subscribe} returns (work that completes inside
 * {@code subscribe}, the common case, never touches the stop source). A stop requested while
 * {@code subscribe} runs is acted on at the source's next element ({@link #checkStopWhileSubscribing},
 * for a synchronous source of many elements), or when the registration made after
 * {@code subscribe} finds it; it is never lost, and the association is never released while the
 * source is still being subscribed. A terminal signal completes the work (value on success or completion, {@code setError} on an error, stopped on a
 * {@link CancellationException}); {@link #stop} (the {@code Disposable}'s {@code dispose()}, or
 * the stop token's callback) cancels the upstream and completes the work stopped. The work is
 * completed exactly once, after its stop registration was deregistered; in the direct path, an
 * error is routed before the association is released.
 *
 * <p>Scheduled tasks ({@link TaskAttribution}): while a scheduler hook is installed, tasks that
 * the work schedules (while its source is subscribed, or from inside such a task) are attributed
 * to it, and the release of its association (the token's {@code dissociate()}, or the receiver's
 * completion on the general path) waits, after the work ended, until no attributed task is
 * running: it then happens on the thread of the last task to return. A task that starts after the
 * release runs untracked; one that never starts holds nothing.
 */
public abstract class SpawnedWork implements StopNode {
    /*
     * One word, word:
     *   bits 0..2  the StopNode registration state (owned by the stop source's protocol)
     *   bit  3     FOREIGN: the registration is an ordinary StopCallback, kept in next
     *   bits 4..5  phase: SUBSCRIBING 0 (subscribing, then registering), ACTIVE 1, STOP_PENDING 2, DONE 3
     *   bit  6     DIRECT: target is the token (else the receiver)
     *   bit  7     STARTED: the general path's start() ran (a second one is a protocol violation)
     *   bits 8..11 the subclass's (constant after construction)
     *   bits 12..13 PENDING: the completion waiting for attributed tasks to end: 0 none, else how + 1
 *   bit  14    LISTENED: DIRECT, and target is a ListenedToken whose listener is told the end
     *   bits 16..30 TASKS: attributed tasks running now (at most 32767; more run untracked)
     * The word stays non-negative (claim() answers -1 for "not ours").
     * The phase is SUBSCRIBING while the spawning thread subscribes the source and, if the
     * work has not ended when subscribe returns, registers it on the stop token; then
     * ACTIVE; it ends in DONE, reached by exactly one winner of a CAS among the
     * completion paths (terminal signal, dispose(), stop callback), and only the winner
     * completes the work, so the association is released exactly once. A stop that comes while the
     * phase is still SUBSCRIBING (the registration's callback, dispose(), or an element that
     * finds the stop token stopped) moves it to STOP_PENDING and cancels whatever upstream there
     * is, but leaves the stopped completion to the spawning thread, which delivers it once
     * subscribe has returned: the association is never released while the source is still
     * being subscribed. A terminal signal during SUBSCRIBING (a synchronous source, or an
     * asynchronous one that ends on another thread while the spawning thread registers)
     * completes at once.
     *
     * The listener's end is told in complete(), which only the one path that moved the phase to
     * DONE reaches (a claim, stop()'s CAS, or STOP_PENDING -> DONE), so it is told exactly once,
     * before anything else the completion does; LISTENED is written with DIRECT, before the work
     * is published, and never changes.
     *
     * The registration (made after subscribe, only for work that has not ended): the spawning
     * thread sets REGISTERED with a CAS that requires phase SUBSCRIBING and the bits FREE (it
     * fails if the work ended or a stop came meanwhile: then there is nothing to register), links
     * the object (StopNode.Host.link: the push, or the callback inline if stop was requested
     * since), then CASes SUBSCRIBING -> ACTIVE. So REGISTERED with phase SUBSCRIBING means
     * "being linked": the node may not be in the source's list yet. The claim of the completion
     * by a terminal signal moves a registration that is still REGISTERED to CANCELLED, in the
     * same CAS (the callback can no longer run); the source is then told with
     * StopNode.Host.cancelled, by the claimer if the phase was ACTIVE, else by the spawning
     * thread once link returned true (it finds DONE and CANCELLED when its CAS to ACTIVE fails),
     * so the source is told only of a node it has linked. Every other change of the
     * registration bits is the stop source's, and every CAS preserves the bits it does not own.
     * Where no other thread can see the object until the registration is made (startDirectInline),
     * REGISTERED is set with a plain write. An ordinary StopCallback (FOREIGN) is made first and
     * FOREIGN set with ACTIVE in one CAS; a claim that came before that CAS saw no registration,
     * so the spawning thread closes the callback itself.
     *
     * target is written on the spawning thread before the source is subscribed and before
     * spawn returns this object, which publishes it to the source's threads and to any thread
     * the caller hands the Disposable to. next (for FOREIGN) is written before the CAS that sets
     * FOREIGN, which publishes it to whoever reads FOREIGN. A stop callback that runs inline in
     * onStop runs before next is assigned, and a callback never needs to close its own
     * registration, so it never reads next.
     */

    private static final int FOREIGN = 1 << 3;
    private static final int PHASE = 3 << 4;
    private static final int SUBSCRIBING = 0, ACTIVE = 1 << 4, STOP_PENDING = 2 << 4, DONE = 3 << 4;
    private static final int DIRECT = 1 << 6;
    private static final int STARTED = 1 << 7;
    /** Where the subclass's bits start. */
    protected static final int SUBCLASS_SHIFT = 8;
    private static final int SUBCLASS_MASK = 0xF;
    private static final int PENDING_SHIFT = 12;
    private static final int PENDING = 3 << PENDING_SHIFT;
    private static final int TASK_SHIFT = 16;
    private static final int TASK_ONE = 1 << TASK_SHIFT;
    private static final int TASKS = 0x7FFF << TASK_SHIFT;
    private static final int LISTENED = 1 << 14;

    /** What {@code spawn} hands a token's {@code wrap} to find out whether it adds anything. */
    private static final Sender<Void> PROBE = r -> {
        throw new IllegalStateException("never connected");
    };

    private static final int VALUE = 0, ERROR = 1, STOPPED = 2;
    /** The listener's outcome of each completion, by its number (VALUE, ERROR, STOPPED). */
    private static final SpawnDecorator.Outcome[] OUTCOMES = {
        SpawnDecorator.Outcome.VALUE, SpawnDecorator.Outcome.ERROR, SpawnDecorator.Outcome.STOPPED};

    /** {@code next} of a work with no stop registration once its {@code subscribe} returned. */
    private static final Object SUBSCRIBED = new Object();

    private volatile int word;
    /** The StopNode link while linked into a source; the ordinary StopCallback when FOREIGN. */
    private volatile @Nullable Object next;
    /** DIRECT: the AsyncScopeToken; otherwise the receiver given to connect. */
    @SuppressWarnings("NullAway.Init") // set by the factory that creates the work, before it is published
    private Object target;

    /**
     * @param subclassBits constant bits for the subclass (0..15), kept in the word at bits 8..11
     * @throws IllegalArgumentException if {@code subclassBits} does not fit in four bits
     */
    protected SpawnedWork(int subclassBits) {
        if ((subclassBits & ~SUBCLASS_MASK) != 0) {
            throw new IllegalArgumentException("subclass bits must be 0..15, was " + subclassBits);
        }
        WORD.set(this, subclassBits << SUBCLASS_SHIFT); // plain: not yet published (no fence per spawn)
    }

    /** The subclass's bits given to the constructor. */
    protected final int subclassBits() {
        return (word >>> SUBCLASS_SHIFT) & SUBCLASS_MASK;
    }

    // ---------------------------------------------------------------- the subclass's part

    /** Subscribes the source with this object as its subscriber/observer (the spawning thread). */
    protected abstract void subscribeUpstream();

    /** Cancels (disposes) whatever upstream there is, now or when it arrives. */
    protected abstract void cancelUpstream();

    /**
     * What a {@code subscribe} that threw {@code t} failed with: {@code t} by default (RxJava
     * overrides it: its {@code subscribe} wraps what {@code subscribeActual} threw in a
     * {@code NullPointerException}).
     */
    protected Throwable subscribeFailure(Throwable t) {
        return t;
    }

    /** An error that nobody can take any more (after dispose or a stop): the library's hook. */
    protected abstract void dropError(Throwable error);

    // ---------------------------------------------------------------- spawning

    /**
     * Whether work spawned with {@code token} takes the direct path (see the class comment): the
     * token's {@code wrap} adds nothing to work that sees its spawn env (or the token is a
     * {@link ListenedToken} with a listener, over a token whose {@code wrap} adds nothing), and
     * that env's stop token can link a {@link StopNode} or cannot stop. The adapters ask this, then call
     * {@code tryAssociate} and only then allocate their work (so that the association's atomic
     * instruction does not wait for the allocation's stores), then {@link #startDirect}; otherwise
     * they allocate and call {@link #spawnThroughScopes}.
     */
    public static boolean directPath(AsyncScopeToken token) {
        Env env = token.spawnEnv();
        StopToken stop = env.stopToken();
        if (!(stop instanceof StopNode.Host || !stop.stopPossible())) {
            return false;
        }
        if (token instanceof ListenedToken) { // asked first: its wrap would allocate a wrapper
            ListenedToken listened = (ListenedToken) token;
            return listened.listener() != null && listened.undecorated().wrap(PROBE, env) == PROBE;
        }
        return token.wrap(PROBE, env) == PROBE;
    }

    /**
     * The direct path, after {@code token.tryAssociate()} succeeded: tells a {@link ListenedToken}'s
     * listener that the work was accepted, subscribes, registers if still running. If the listener
     * throws (against its contract), the association is released and the exception propagates:
     * the source is never subscribed.
     */
    public final void startDirect(AsyncScopeToken token) {
        target = token;
        int bits = token instanceof ListenedToken ? accepted((ListenedToken) token) : DIRECT;
        WORD.set(this, (int) WORD.get(this) | bits); // plain: no other thread can see this object yet
        // through the trampoline, as Scopes.spawn starts work: a spawn from inside spawned work (a
        // loop that spawns the next piece from the completion of the previous one) is queued beyond
        // 16 nested starts on this thread, so the stack stays bounded
        Trampoline.run(SpawnedWork::runDirect, this, token);
    }

    /**
     * The direct path for a subscriber that its library subscribes itself right after this returns
     * (a subscriber handed back from a subscribe hook): as {@link #startDirect}, but on this stack,
     * never queued, so that the registration is made before the source's signals can come.
     * {@link #subscribeUpstream} is then expected to do nothing, and is not called: since nothing
     * is subscribed here, the work is ACTIVE from the start (the library subscribes it only after
     * this returned, as it would subscribe an ACTIVE work after a CAS to ACTIVE), so a stop token
     * that can link nodes gets it linked with the phase, the registration and the path set by one
     * plain write, and no CAS to ACTIVE follows. For a token whose {@code wrap} adds nothing: a
     * {@link ListenedToken}'s listener is not told here.
     */
    public final void startDirectInline(AsyncScopeToken token) {
        target = token;
        StopToken stop = token.spawnEnv().stopToken();
        if (stop instanceof StopNode.Host && !stop.stopRequested()) {
            // plain: no other thread can see this object before it is linked
            WORD.set(this, (int) WORD.get(this) | DIRECT | ACTIVE | REGISTERED);
            ((StopNode.Host) stop).link(this); // a stop requested meanwhile runs stop() inline: ACTIVE -> DONE
            return;
        }
        WORD.set(this, (int) WORD.get(this) | DIRECT); // plain: no other thread can see this object yet
        run(stop, true);
    }

    /** Tells the token's listener that the work was accepted; the path bits to set. */
    private static int accepted(ListenedToken token) {
        SpawnListener listener = token.listener();
        if (listener == null) {
            return DIRECT; // not a listener only: the caller did not ask directPath; nothing to tell
        }
        try {
            listener.decorate(token.scopeName(), null);
        } catch (RuntimeException | Error e) {
            token.dissociate();
            throw e;
        }
        return DIRECT | LISTENED;
    }

    private static void runDirect(SpawnedWork work, AsyncScopeToken token) {
        work.run(token.spawnEnv().stopToken(), false);
    }

    /**
     * The general path: {@code Scopes.spawn} of a single-shot sender over this work.
     *
     * @return {@code false} if the scope refused it (closed): the source was never subscribed
     */
    public final boolean spawnThroughScopes(AsyncScopeToken token) {
        return Scopes.spawn(new Connection(this), token);
    }

    /**
     * The general path under a name ({@code Scopes.named}): the scope lists the work while it runs.
     *
     * @return {@code false} if the scope refused it (closed): the source was never subscribed
     */
    public final boolean spawnThroughScopes(AsyncScopeToken token, String name) {
        return Scopes.spawn(Scopes.named(new Connection(this), name), token);
    }

    /**
     * The general path's single-shot sender and its operation, over the work: a separate object
     * (allocated on that path only) so that the work itself implements as few interfaces as
     * possible: sources test their subscriber against interfaces (Reactor's {@code Mono.subscribe}
     * asks {@code instanceof Fuseable.QueueSubscription}), and a failed test scans them all.
     */
    private static final class Connection implements Sender<Void>, OperationState {
        private final SpawnedWork work;

        Connection(SpawnedWork work) {
            this.work = work;
        }

        @Override
        public OperationState connect(Receiver<? super Void> receiver) {
            Objects.requireNonNull(receiver, "receiver");
            if (work.target != null) {
                throw new ProtocolViolationException(work + ": a spawned work's sender is single-shot: connected twice");
            }
            work.target = receiver;
            return this;
        }

        @Override
        public void start() {
            work.startConnected();
        }

        @Override
        public String toString() {
            return work.toString();
        }
    }

    private void startConnected() {
        for (;;) {
            int w = word;
            if ((w & STARTED) != 0) {
                throw ImmediateOperation.startedTwice(this);
            }
            if (casNodeWord(w, w | STARTED)) {
                break;
            }
        }
        run(receiver().env().stopToken(), false);
    }

    /**
     * Subscribes, then registers on {@code stop} only if the work did not end inside
     * {@code subscribe}, and leaves the phase ACTIVE (or completes a pending stop). Kept small, with
     * the rare paths in methods of their own, so that the whole spawn is inlined into the caller
     * (the JIT inlines only while the compiled code stays small).
     *
     * @param unpublished whether no other thread can see this work until this returns (a
     *        subscriber its library subscribes only afterwards): the registration is then a plain write
     */
    private void run(StopToken stop, boolean unpublished) {
        boolean stoppable = stop.stopPossible();
        if (stoppable && stop.stopRequested() || (word & PHASE) != SUBSCRIBING) {
            stopBeforeSubscribe(); // stopped first, or disposed while its start was queued
            return;
        }
        try { // with this work current for task attribution while a scheduler hook is installed
            if (TaskAttribution.hooks == 0) { // in line, not a helper: one call level less on the spawn path
                subscribeUpstream();
            } else {
                TaskAttribution.subscribe(this);
            }
        } catch (Throwable t) { // subscribe must not throw; deliver what it threw
            subscribeThrew(t);
            return;
        }
        if ((word & PHASE) != DONE) { // else it ended inside subscribe: nothing to register (the common case)
            afterSubscribe(stoppable ? stop : null, unpublished);
        }
    }

    /** A stop that came before the source was subscribed: it never is. */
    private void stopBeforeSubscribe() {
        casPhase(SUBSCRIBING, STOP_PENDING);
        cancelUpstream();
        completePendingStop();
    }

    /**
     * {@code subscribe} returned and the work has not ended: registers on {@code stop} (null: the
     * token cannot stop), then ACTIVE, or completes a stop that came meanwhile.
     */
    private void afterSubscribe(@Nullable StopToken stop, boolean unpublished) {
        if (stop == null) {
            // nothing can stop the work but dispose(), which cannot be called before spawn returned
            // the Disposable (only the source could, disposing its subscriber: that is still
            // completed here): the phase stays SUBSCRIBING (no CAS to ACTIVE); next, unused without
            // a registration, is set to SUBSCRIBED, and stop() takes SUBSCRIBING with that mark for
            // ACTIVE (it reads it after the caller's hand-off of the Disposable, which publishes
            // the plain write)
            NEXT.set(this, SUBSCRIBED);
            if ((word & PHASE) == STOP_PENDING) {
                completePendingStop(); // the source itself disposed its subscriber while subscribing
            }
        } else if (stop instanceof StopNode.Host) {
            registerNode((StopNode.Host) stop, unpublished);
        } else {
            registerCallback(stop);
        }
    }

    /**
     * The built-in registration, made once {@code subscribe} returned: REGISTERED (a CAS that
     * fails if the work ended or a stop came meanwhile), the link, then ACTIVE. A terminal signal
     * on another thread may claim the work between the CAS and the link: its claim cancels the
     * registration but leaves telling the source ({@code cancelled}) to this thread, once the node is
     * linked (see the class comment).
     */
    private void registerNode(StopNode.Host host, boolean unpublished) {
        if (unpublished) {
            WORD.set(this, (int) WORD.get(this) | REGISTERED); // plain: no other thread can see this object yet
        } else {
            for (;;) {
                int w = word;
                if ((w & PHASE) != SUBSCRIBING) { // ended (DONE) or stopped (STOP_PENDING) meanwhile
                    completePendingStop();
                    return;
                }
                if (casNodeWord(w, w | REGISTERED)) {
                    break;
                }
            }
        }
        boolean linked = host.link(this); // may run onStopRequested inline: then STOP_PENDING
        for (;;) {
            int w = word;
            int phase = w & PHASE;
            if (phase == SUBSCRIBING) {
                if (casNodeWord(w, (w & ~PHASE) | ACTIVE)) {
                    return; // running: a terminal signal, dispose() or the stop callback completes it
                }
            } else if (phase == STOP_PENDING) {
                completePendingStop();
                return;
            } else { // DONE: claimed while we linked; its claim cancelled the registration
                if (linked && (w & MASK) == CANCELLED) {
                    host.cancelled(this);
                }
                return;
            }
        }
    }

    /**
     * An ordinary {@code onStop} registration (a stop token that cannot link nodes), made once
     * {@code subscribe} returned; FOREIGN is set with ACTIVE in one CAS, and a work that ended
     * before that closes the callback here (its claim saw no registration to end).
     */
    private void registerCallback(StopToken stop) {
        StopCallback c = stop.onStop(this::onStopRequested); // may run inline: then STOP_PENDING
        next = c;
        for (;;) {
            int w = word;
            int phase = w & PHASE;
            if (phase == SUBSCRIBING) {
                if (casNodeWord(w, (w & ~PHASE) | ACTIVE | FOREIGN)) {
                    return;
                }
            } else if (phase == STOP_PENDING) {
                if (casNodeWord(w, w | FOREIGN)) {
                    completePendingStop(); // closes c
                    return;
                }
            } else {
                next = null;
                c.close();
                return;
            }
        }
    }

    /**
     * For the subclass's element signal: an element delivered while the spawning thread is still
     * in {@code subscribe} (a synchronous source of many elements, such as {@code Flux.generate},
     * which can run there for as long as it is not cancelled), before the work is registered on
     * its stop token: a stop requested meanwhile is acted on now (the upstream is cancelled), not
     * only once {@code subscribe} returned.
     */
    protected final void checkStopWhileSubscribing() {
        if ((word & (PHASE | MASK | FOREIGN)) == SUBSCRIBING && next != SUBSCRIBED && stopToken().stopRequested()) {
            stop();
        }
    }

    private void subscribeThrew(Throwable thrown) {
        Signals.throwIfFatal(thrown);
        Throwable t = subscribeFailure(thrown);
        int w = claim();
        if (w >= 0) {
            cancelUpstream();
            endRegistration(w);
            complete(ERROR, t);
            return;
        }
        dropError(t);
        if (casPhase(STOP_PENDING, DONE)) {
            deregister();
            complete(STOPPED, null);
        }
    }

    private void completePendingStop() {
        if (casPhase(STOP_PENDING, DONE)) {
            deregister();
            complete(STOPPED, null);
        }
    }

    // ---------------------------------------------------------------- completion paths

    /** The source ended with success or completion. Call once per terminal signal. */
    protected final void upstreamCompleted() {
        int w = claim();
        if (w >= 0) {
            if ((w & (MASK | FOREIGN)) != 0) {
                endRegistration(w);
            }
            complete(VALUE, null);
        }
    }

    /** The source ended: {@code error} null for success/completion. Call once per terminal signal. */
    protected final void upstreamTerminated(Throwable error) {
        if (error == null) {
            upstreamCompleted();
            return;
        }
        int w = claim();
        if (w < 0) {
            if (!(error instanceof CancellationException)) {
                dropError(error); // after dispose or a stop: undeliverable, never lost
            }
            return;
        }
        endRegistration(w);
        if (error instanceof CancellationException) {
            complete(STOPPED, null); // an upstream CancellationException is a stop, not an error
        } else {
            complete(ERROR, error);
        }
    }

    /**
     * The source broke its protocol, or the subscriber could not go on ({@code error}): cancels it
     * and completes the work with the error if it is not completed yet; otherwise reports it.
     */
    protected final void fail(Throwable error) {
        int w = claim();
        if (w >= 0) {
            cancelUpstream();
            endRegistration(w);
            complete(ERROR, error);
        } else {
            dropError(error);
        }
    }

    /** The stop callback (the scope's stop): cancel upstream, complete stopped. */
    @Override
    public final void onStopRequested() {
        stop();
    }

    /**
     * {@code Disposable.dispose()}: cancels the upstream and completes the work stopped, or, while
     * the spawning thread is still subscribing, leaves the completion to it. Idempotent.
     */
    public final void stop() {
        for (;;) {
            int w = word;
            int phase = w & PHASE;
            if (phase == ACTIVE || phase == SUBSCRIBING && next == SUBSCRIBED) {
                if (casNodeWord(w, (w & ~PHASE) | DONE)) {
                    deregister();
                    cancelUpstream();
                    complete(STOPPED, null);
                    return;
                }
            } else if (phase == SUBSCRIBING) {
                if (casNodeWord(w, (w & ~PHASE) | STOP_PENDING)) {
                    cancelUpstream(); // the spawning thread completes stopped when subscribe returns
                    return;
                }
            } else {
                return; // STOP_PENDING or DONE: someone else completes, or completed
            }
        }
    }

    /** {@code Disposable.isDisposed()}: true once disposed, stopped or terminated. */
    public final boolean isDisposed() {
        return (word & PHASE) >= STOP_PENDING;
    }

    /** The env of the work: the token's spawn env (direct) or the receiver's. */
    protected final Env env() {
        return (word & DIRECT) != 0 ? ((AsyncScopeToken) target).spawnEnv() : receiver().env();
    }

    // ---------------------------------------------------------------- helpers

    /**
     * SUBSCRIBING or ACTIVE -> DONE: the completion is ours; in the same CAS a registration still
     * REGISTERED becomes CANCELLED (its callback can no longer run; {@link #endRegistration} then
     * tells the source). Returns the word before the CAS, or -1 if the completion was not ours.
     */
    private int claim() {
        for (;;) {
            int w = word;
            int phase = w & PHASE;
            if (phase != SUBSCRIBING && phase != ACTIVE) {
                return -1;
            }
            int nw = (w & ~PHASE) | DONE;
            if ((w & MASK) == REGISTERED) {
                nw = (nw & ~MASK) | CANCELLED;
            }
            if (casNodeWord(w, nw)) {
                return w;
            }
        }
    }

    /**
     * After {@link #claim()} returned {@code w}: ends the stop registration (the stop-token rule:
     * before completing). A built-in one that the claim cancelled is handed to the source to
     * unlink; one whose callback is running on another thread is waited for; an ordinary one is
     * closed.
     */
    private void endRegistration(int w) {
        if ((w & FOREIGN) != 0) {
            deregister();
            return;
        }
        int n = w & MASK;
        if (n == REGISTERED) {
            if ((w & PHASE) != SUBSCRIBING) {
                ((StopNode.Host) stopToken()).cancelled(this);
            } // else the spawning thread is linking it: it tells the source once the link is made
        } else if (n == RUNNING) {
            ((StopNode.Host) stopToken()).unlink(this); // waits unless we are that callback
        }
    }

    private boolean casPhase(int from, int to) {
        for (;;) {
            int w = word;
            if ((w & PHASE) != from) {
                return false;
            }
            if (casNodeWord(w, (w & ~PHASE) | to)) {
                return true;
            }
        }
    }

    private void setBits(int bits) {
        for (;;) {
            int w = word;
            if (casNodeWord(w, w | bits)) {
                return;
            }
        }
    }

    /** Ends the stop registration before the work completes (the stop-token rule). */
    private void deregister() {
        int w = word;
        if ((w & FOREIGN) != 0) {
            Object c = next;
            if (c != null) {
                next = null;
                ((StopCallback) c).close();
            }
        } else if ((w & MASK) != FREE) {
            ((StopNode.Host) stopToken()).unlink(this);
        }
    }

    private StopToken stopToken() {
        return env().stopToken();
    }

    @SuppressWarnings("unchecked")
    private Receiver<? super Void> receiver() {
        Object t = target;
        return (Receiver<? super Void>) (t instanceof DeferredError ? ((DeferredError) t).receiver : t);
    }

    /**
     * Completes the work (after the claim): tells a listener the end, then releases the association now, or, while attributed
     * tasks run, leaves the release to the last of them. Once the phase is DONE and no task runs,
     * no task can start counted any more, so a count read as zero here stays zero.
     */
    private void complete(int how, @Nullable Throwable error) {
        if ((word & LISTENED) != 0) {
            ended(how, error);
        }
        if ((word & TASKS) != 0) {
            completeAfterTasks(how, error);
            return;
        }
        release(how, error);
    }

    /**
     * Tells the token's listener how the work ended, before the scope is told; what it throws
     * (against its contract) goes to {@link Hooks#onErrorDropped}, and the completion goes on.
     */
    private void ended(int how, @Nullable Throwable error) {
        try {
            Nulls.nonNull(((ListenedToken) target).listener()).end(OUTCOMES[how], error);
        } catch (Throwable t) {
            Signals.throwIfFatal(t);
            Hooks.onErrorDropped(t);
        }
    }

    /**
     * The completion while attributed tasks run: an error of the direct path is routed now (only
     * the release waits); the general path's error is kept with the receiver in {@code target}
     * (written before the CAS that publishes it to the last task). Then PENDING is set, unless the
     * last task ended meanwhile: then the release is ours.
     */
    private void completeAfterTasks(int how, @Nullable Throwable error) {
        if (how == ERROR) {
            if ((word & DIRECT) != 0) {
                AsyncScopeToken token = (AsyncScopeToken) target;
                routeError(token, Nulls.nonNull(error), token.spawnEnv());
                how = VALUE;
                error = null;
            } else {
                target = new DeferredError(receiver(), Nulls.nonNull(error));
            }
        }
        for (;;) {
            int w = word;
            if ((w & TASKS) == 0) {
                release(how, error);
                return;
            }
            if (casNodeWord(w, w | (how + 1) << PENDING_SHIFT)) {
                return; // the last attributed task to return releases
            }
        }
    }

    /**
     * An attributed task starts (on its scheduler's thread): counted unless the work has released
     * its association (phase DONE with no task running), or the count is full.
     *
     * @return {@code true} if counted: then call {@link #taskEnded()} once when it returns
     */
    final boolean taskStarted() {
        for (;;) {
            int w = word;
            int tasks = w & TASKS;
            if (tasks == TASKS || tasks == 0 && (w & PHASE) == DONE) {
                return false; // released (or releasing): the task runs untracked
            }
            if (casNodeWord(w, w + TASK_ONE)) {
                return true;
            }
        }
    }

    /** A counted task returned: the last one releases a pending completion. */
    final void taskEnded() {
        for (;;) {
            int w = word;
            int nw = w - TASK_ONE;
            int pending = w & PENDING;
            if ((nw & TASKS) == 0 && pending != 0) {
                if (casNodeWord(w, nw & ~PENDING)) {
                    int how = (pending >>> PENDING_SHIFT) - 1;
                    release(how, how == ERROR ? ((DeferredError) target).error : null);
                    return;
                }
            } else if (casNodeWord(w, nw)) {
                return;
            }
        }
    }

    /** The general path's receiver and the error it is to get once the attributed tasks ended. */
    private static final class DeferredError {
        final Receiver<? super Void> receiver;
        final Throwable error;

        DeferredError(Receiver<? super Void> receiver, Throwable error) {
            this.receiver = receiver;
            this.error = error;
        }
    }

    /** Releases the association: the token's (direct path) or the receiver's completion. */
    private void release(int how, @Nullable Throwable error) {
        if ((word & DIRECT) != 0) {
            AsyncScopeToken token = (AsyncScopeToken) target;
            if (how == ERROR) {
                routeThenDissociate(token, Nulls.nonNull(error)); // ERROR carries the error
            } else {
                token.dissociate();
            }
            return;
        }
        completeReceiver(how, error);
    }

    private static void routeThenDissociate(AsyncScopeToken token, Throwable error) {
        try {
            routeError(token, error, token.spawnEnv());
        } finally {
            token.dissociate();
        }
    }

    private void completeReceiver(int how, @Nullable Throwable error) {
        Receiver<? super Void> r = receiver();
        if (how == VALUE) {
            Signals.setValue(r, null);
        } else if (how == ERROR) {
            Signals.setError(r, Nulls.nonNull(error)); // ERROR carries the error
        } else {
            Signals.setStopped(r);
        }
    }

    /**
     * Hands an error of spawned work to its token ({@link AsyncScopeToken#onSpawnError}); a token
     * whose method throws anyway has that reported to {@link Hooks#onErrorDropped}, never lost.
     */
    public static void routeError(AsyncScopeToken token, Throwable error, Env env) {
        try {
            token.onSpawnError(error, env);
        } catch (Throwable t) {
            Signals.handlerFailed(t, error);
        }
    }

    // ---------------------------------------------------------------- StopNode

    @Override
    public final int nodeWord() {
        return word;
    }

    @Override
    public final boolean casNodeWord(int expect, int update) {
        return WORD.compareAndSet(this, expect, update);
    }

    @Override
    public final @Nullable StopNode nextNode() {
        return (StopNode) next;
    }

    @Override
    public final void nextNode(@Nullable StopNode n) {
        NEXT.setRelease(this, n); // published by the push's CAS: see StopNode#nextNode(StopNode)
    }

    private static final VarHandle WORD = VarHandles.field(MethodHandles.lookup(), SpawnedWork.class, "word", int.class);
    private static final VarHandle NEXT = VarHandles.field(MethodHandles.lookup(), SpawnedWork.class, "next", Object.class);
}
