package dev.senders.scope;

import java.util.Objects;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * Builds a {@link SimpleCountingScope} ({@link SimpleCountingScope#builder()}) or a
 * {@link CountingScope} ({@link CountingScope#builder()}) with a name, an error handler and a limit
 * on outstanding work, each optional:
 * <pre>{@code
 * CountingScope scope = CountingScope.builder()
 *         .name("audits")
 *         .errorHandler(error -> log.warn("audit failed", error))
 *         .maxOutstanding(1_000)   // at 1,000 outstanding, spawn returns false until some ends
 *         .build();
 * }</pre>
 * Not thread-safe; each {@link #build()} makes a new scope.
 *
 * @param <S> the kind of scope built
 */
public final class ScopeBuilder<S extends AbstractCountingScope> {

    /** Makes the scope from the builder's settings. */
    interface Factory<S> {
        S create(@Nullable String name, @Nullable Consumer<? super Throwable> errorHandler, long maxOutstanding);
    }

    private final Factory<S> factory;
    private @Nullable String name;
    private @Nullable Consumer<? super Throwable> errorHandler;
    private long maxOutstanding = ScopeCore.UNBOUNDED;

    ScopeBuilder(Factory<S> factory) {
        this.factory = factory;
    }

    /**
     * The scope's name, used by {@code toString()}, leak and shutdown reports, {@link ScopeTrace}s
     * and JFR events. Without one a name is generated.
     *
     * @param name the scope's name
     * @return this builder
     * @throws NullPointerException if {@code name} is null
     * @throws IllegalArgumentException if {@code name} is blank
     */
    public ScopeBuilder<S> name(String name) {
        this.name = AbstractCountingScope.checkName(name);
        return this;
    }

    /**
     * Where the errors of spawned work go (called on the failing thread, with a {@link ScopeTrace}
     * naming the scope, and the work if named, suppressed by the error). Without one they go to
     * {@code Hooks.onErrorDropped}.
     *
     * @param errorHandler receives the errors of work spawned into the scope
     * @return this builder
     * @throws NullPointerException if {@code errorHandler} is null
     */
    public ScopeBuilder<S> errorHandler(Consumer<? super Throwable> errorHandler) {
        this.errorHandler = Objects.requireNonNull(errorHandler, "errorHandler");
        return this;
    }

    /**
     * The most operations the scope holds at once (see {@link AbstractCountingScope#maxOutstanding()});
     * without it there is no limit.
     *
     * @param maxOutstanding the limit, at least 1; {@link Long#MAX_VALUE} for no limit
     * @return this builder
     * @throws IllegalArgumentException if {@code maxOutstanding} is below 1
     */
    public ScopeBuilder<S> maxOutstanding(long maxOutstanding) {
        this.maxOutstanding = ScopeCore.checkMaxOutstanding(maxOutstanding);
        return this;
    }

    /**
     * A new scope, in the {@code UNUSED} state, with this builder's settings.
     *
     * @return the new scope
     */
    public S build() {
        return factory.create(name, errorHandler, maxOutstanding);
    }
}
