package dev.senders.scope;

import dev.senders.Sender;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * An async scope that counts associated work and can be joined ({@code simple_counting_scope},
 * P3149R6 [exec.simple.counting]).
 *
 * <p>The scope goes through the seven {@linkplain ScopeState states} of the paper:
 * {@link #getToken() tokens} associate work while it is open; {@link #close()} refuses new work;
 * starting a {@link #join()} sender waits until the count is zero and then moves to
 * {@link ScopeState#JOINED JOINED}. All operations are lock-free; the count and the state are one
 * atomic word (see {@code ScopeCore} for the layout).
 *
 * <p><b>Dropping a scope.</b> Where C++ calls {@code std::terminate()} from the destructor, this
 * class reports: a scope that becomes unreachable while work is still associated with it (count
 * above zero, whatever the state) is reported as a {@link ScopeLeakedException} (its name, state,
 * count, the work it can list and, under debug capture, where it was created) to
 * {@link dev.senders.Hooks#onErrorDropped}, from the library's {@link java.lang.ref.Cleaner}
 * thread. A scope with no work associated lost nothing and is dropped silently, open or not.
 *
 * <p><b>Joining an open scope.</b> A join may be started before {@link #close()}: it waits until
 * the count is zero, during which new work is still accepted, and then moves the scope to
 * {@code JOINED}, which refuses new work for good (counted by {@link #refusedCount()}). Close
 * first when new work must be refused while the join waits.
 *
 * <p><b>Names and the dump.</b> A scope has a {@link #name()} (given, or generated) used by every
 * report, and lists its {@link #outstanding()} work.
 *
 * <p><b>Errors of spawned work</b> ({@link Scopes#spawn}) go to the handler given to the
 * constructor (or the env's {@link Scopes#SPAWN_ERROR_HANDLER}); without one, to
 * {@link dev.senders.Hooks#onErrorDropped}. {@link #errorCount()} counts them.
 */
public final class SimpleCountingScope {

    private final ScopeCore core;

    /** A scope in the {@code UNUSED} state whose spawn errors go to {@code Hooks.onErrorDropped}; its name is generated. */
    public SimpleCountingScope() {
        this.core = newCore(null, null);
    }

    /**
     * A scope whose spawned work's errors go to {@code errorHandler} (called on the failing thread).
     *
     * @param errorHandler receives the errors of spawned work
     */
    public SimpleCountingScope(Consumer<? super Throwable> errorHandler) {
        this.core = newCore(null, Objects.requireNonNull(errorHandler, "errorHandler"));
    }

    /**
     * A named scope whose spawn errors go to {@code Hooks.onErrorDropped}. The name appears in
     * {@link #toString()}, leak reports, {@link ScopeTrace}s and JFR events.
     *
     * @param name the scope's name
     * @throws NullPointerException if {@code name} is null
     * @throws IllegalArgumentException if {@code name} is blank
     */
    public SimpleCountingScope(String name) {
        this.core = newCore(checkName(name), null);
    }

    /**
     * A named scope whose spawned work's errors go to {@code errorHandler} (called on the failing
     * thread, with a {@link ScopeTrace} naming the scope, and the work if named, suppressed by the error).
     *
     * @param name the scope's name
     * @param errorHandler receives the errors of work spawned into this scope
     * @throws NullPointerException if an argument is null
     * @throws IllegalArgumentException if {@code name} is blank
     */
    public SimpleCountingScope(String name, Consumer<? super Throwable> errorHandler) {
        this.core = newCore(checkName(name), Objects.requireNonNull(errorHandler, "errorHandler"));
    }

    private ScopeCore newCore(String name, Consumer<? super Throwable> errorHandler) {
        ScopeCore c = ScopeCore.forScope("SimpleCountingScope", name, false, errorHandler);
        c.watch(this); // the leak check is registered at the first association
        return c;
    }

    static String checkName(String name) {
        Objects.requireNonNull(name, "name");
        if (name.isBlank()) {
            throw new IllegalArgumentException("a scope's name must not be blank (it names the scope in reports)");
        }
        return name;
    }

    /** The shared state machine (package-private: tests and {@link Scopes} read its diagnostics). */
    ScopeCore core() {
        return core;
    }

    /**
     * The token that associates work with this scope; the same object on every call.
     *
     * @return this scope's token
     */
    public AsyncScopeToken getToken() {
        return core;
    }

    /**
     * Closes the scope to new work: {@code UNUSED -> UNUSED_AND_CLOSED}, {@code OPEN -> CLOSED},
     * {@code OPEN_AND_JOINING -> CLOSED_AND_JOINING}; in the other states (already closed) it does
     * nothing. Work already associated is not affected.
     */
    public void close() {
        core.close();
    }

    /**
     * A sender that, when started, waits until the count of associated work is zero and completes
     * with {@code setValue(null)}; the scope is then {@code JOINED}. Starting it moves the scope to
     * {@code OPEN_AND_JOINING} or {@code CLOSED_AND_JOINING}, or straight to {@code JOINED} if the
     * count is zero (also when the scope is open: the stdexec fix). Connecting it changes nothing.
     *
     * <p>Which thread completes it: the starting thread, inline, if it observes a zero count (or
     * the scope is already joined; any number of joins may be started, before or after); otherwise
     * the scheduler of its receiver's env ({@code schedule()} on it, then {@code setValue}), or,
     * if the env has none, the thread whose {@code dissociate} brought the count to zero.
     *
     * <p>Stop: a stop request on the receiver's token while the join waits completes it with
     * {@code setStopped()} at once, on the requesting thread, and the scope forgets that waiter;
     * the associated work is not stopped (that is {@code CountingScope.requestStop()}). A second
     * {@code start} of the same operation throws {@link dev.senders.ProtocolViolationException}.
     *
     * @return a sender that completes once the scope is joined
     */
    public Sender<Void> join() {
        return core.join();
    }

    /**
     * The current state (a snapshot, for tests and monitoring).
     *
     * @return the current state
     */
    public ScopeState state() {
        return core.state();
    }

    /**
     * The current number of associated operations (a snapshot).
     *
     * @return the number of associated operations
     */
    public long count() {
        return core.count();
    }

    /**
     * How many spawned operations of this scope completed with an error.
     *
     * @return the number of spawned operations that failed
     */
    public long errorCount() {
        return core.errorCount();
    }

    /**
     * How many associations this scope refused because it was closed (or joined): a
     * {@code spawn} that returned {@code false}, a {@code spawnFuture} or {@code nest} that
     * completes stopped, an adapter's refused spawn. A snapshot; never reset.
     *
     * @return the number of refused associations
     */
    public long refusedCount() {
        return core.refusedCount();
    }

    /**
     * The name given to the constructor, else a generated one ({@code SimpleCountingScope@1b6d3586}).
     *
     * @return the scope's name
     */
    public String name() {
        return core.name();
    }

    /**
     * The work still associated that this scope can list, oldest first: every piece of work
     * named with {@link Scopes#named} (or a spawn overload taking a name), and every piece spawned
     * while debug capture ({@code -Ddev.senders.debug=true}, {@code Hooks.enableDebugCapture()})
     * was on or a flight recording had {@code dev.senders.Spawn}/{@code WorkEnd} enabled, with its
     * spawn site under capture. Other work is only counted: {@code count() - outstanding().size()}
     * operations are unlisted (a nest sender not yet started counts but is not running). Work
     * leaves the list before its association is released. A snapshot; any thread.
     *
     * @return the listable work still associated, oldest first
     */
    public List<OutstandingWork> outstanding() {
        return core.outstanding();
    }

    /** {@code name[STATE, count=n]}, e.g. {@code SimpleCountingScope@1b6d3586[OPEN, count=2]}. */
    @Override
    public String toString() {
        return core.name() + "[" + state() + ", count=" + count() + "]";
    }
}
