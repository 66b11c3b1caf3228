package dev.senders.scope;

import java.util.Objects;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

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
 * <p><b>Waiting without ending it.</b> {@link #whenIdle()} completes the next time the scope
 * holds no work and leaves it open, unlike {@link #join()}.
 *
 * <p><b>A limit.</b> A scope built with {@link #builder()}{@code .maxOutstanding(n)} holds at most
 * {@code n} operations: at that count {@code tryAssociate()} fails and every path refuses the
 * work as for a closed scope; {@link #refusedCount(RefusalReason)} counts refusals by reason.
 *
 * <p><b>Names and the dump.</b> A scope has a {@link #name()} (given, or generated) used by every
 * report, and lists its {@link #outstanding()} work.
 *
 * <p><b>Errors of spawned work</b> ({@link Scopes#spawn}) go to the handler given to the
 * constructor (or the env's {@link Scopes#SPAWN_ERROR_HANDLER}); without one, to
 * {@link dev.senders.Hooks#onErrorDropped}. {@link #errorCount()} counts them.
 */
public final class SimpleCountingScope extends AbstractCountingScope {

    /** A scope in the {@code UNUSED} state whose spawn errors go to {@code Hooks.onErrorDropped}; its name is generated. */
    public SimpleCountingScope() {
        this(null, null, ScopeCore.UNBOUNDED);
    }

    /**
     * A scope whose spawned work's errors go to {@code errorHandler} (called on the failing thread).
     *
     * @param errorHandler receives the errors of spawned work
     * @throws NullPointerException if {@code errorHandler} is null
     */
    public SimpleCountingScope(Consumer<? super Throwable> errorHandler) {
        this(null, Objects.requireNonNull(errorHandler, "errorHandler"), ScopeCore.UNBOUNDED);
    }

    /**
     * A named scope whose spawn errors go to {@code Hooks.onErrorDropped}. The name appears in
     * {@link #toString()}, leak reports, shutdown reports, {@link ScopeTrace}s and JFR events.
     *
     * @param name the scope's name
     * @throws NullPointerException if {@code name} is null
     * @throws IllegalArgumentException if {@code name} is blank
     */
    public SimpleCountingScope(String name) {
        this(checkName(name), null, ScopeCore.UNBOUNDED);
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
        this(checkName(name), Objects.requireNonNull(errorHandler, "errorHandler"), ScopeCore.UNBOUNDED);
    }

    private SimpleCountingScope(@Nullable String name, @Nullable Consumer<? super Throwable> errorHandler, long maxOutstanding) {
        super("SimpleCountingScope", name, false, errorHandler, maxOutstanding);
    }

    /**
     * A builder for a scope with a name, an error handler and a limit on outstanding work.
     *
     * @return a new builder
     */
    public static ScopeBuilder<SimpleCountingScope> builder() {
        return new ScopeBuilder<>(SimpleCountingScope::new);
    }
}
