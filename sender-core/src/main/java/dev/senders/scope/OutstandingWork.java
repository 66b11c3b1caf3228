package dev.senders.scope;

import dev.senders.internal.Durations;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * One piece of work still associated with a scope, as listed by
 * {@link CountingScope#outstanding()}, {@link SimpleCountingScope#outstanding()}, shutdown
 * reports and leak reports: its name, kind, when it started and, when debug capture was on as it
 * was spawned, where. An immutable snapshot taken when the list was made.
 */
public final class OutstandingWork {

    private final String scope;
    private final @Nullable String name;
    private final String kind;
    private final Instant startedAt;
    private final Duration age;
    private final StackTraceElement @Nullable [] site;
    private final boolean queued;

    OutstandingWork(String scope, @Nullable String name, String kind, long startNanos, long nowNanos, Instant now,
            StackTraceElement @Nullable [] site) {
        this(scope, name, kind, startNanos, nowNanos, now, site, false);
    }

    OutstandingWork(String scope, @Nullable String name, String kind, long startNanos, long nowNanos, Instant now,
            StackTraceElement @Nullable [] site, boolean queued) {
        this.queued = queued;
        this.scope = scope;
        this.name = name;
        this.kind = kind;
        this.age = Duration.ofNanos(Math.max(0L, nowNanos - startNanos));
        this.startedAt = now.minus(age);
        this.site = site;
    }

    /**
     * The scope's name.
     *
     * @return the name of the scope the work is associated with
     */
    public String scope() {
        return scope;
    }

    /**
     * The name given with {@link Scopes#named} (or a spawn overload taking a name); empty if unnamed.
     *
     * @return the work's name, or empty if it was not named
     */
    public Optional<String> name() {
        return Optional.ofNullable(name);
    }

    /**
     * How it was associated: {@code "spawn"}, {@code "spawnFuture"} or {@code "nest"}.
     *
     * @return the kind of association
     */
    public String kind() {
        return kind;
    }

    /**
     * When it started (wall clock, derived from the monotonic clock at the snapshot).
     *
     * @return the wall-clock instant the work started
     */
    public Instant startedAt() {
        return startedAt;
    }

    /**
     * Whether it was waiting for a thread when the snapshot was taken: a task of a
     * {@link ScopeExecutor} handed to its executor and not yet run. Its {@link #age()} is then how
     * long it had been queued.
     *
     * @return {@code true} if it was queued, {@code false} if it was running
     */
    public boolean queued() {
        return queued;
    }

    /**
     * How long it had been associated with the scope (queued or running) when the snapshot was
     * taken, from its start (for an executor's task, its submission).
     *
     * @return the work's age at the snapshot
     */
    public Duration age() {
        return age;
    }

    /**
     * Where it was spawned (library frames removed); empty unless debug capture was on then.
     *
     * @return the spawn site's frames, innermost first, or an empty list
     */
    public List<StackTraceElement> spawnSite() {
        return site == null ? Collections.emptyList() : Collections.unmodifiableList(Arrays.asList(site));
    }

    /**
     * {@code "audit-42 (spawn, running for 3.2 s)"}, or {@code "queued for"} while it waits for a
     * thread; the spawn site is not included.
     */
    @Override
    public String toString() {
        return (name == null ? "(unnamed)" : name) + " (" + kind + (queued ? ", queued for " : ", running for ")
                + Durations.format(age) + ")";
    }
}
