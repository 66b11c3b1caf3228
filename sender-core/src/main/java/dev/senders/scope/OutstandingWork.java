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

    OutstandingWork(String scope, @Nullable String name, String kind, long startNanos, long nowNanos, Instant now,
            StackTraceElement @Nullable [] site) {
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
     * How long it had been running when the snapshot was taken.
     *
     * @return the work's running time at the snapshot
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

    /** {@code "audit-42 (spawn, running for 3.2 s)"}; the spawn site is not included. */
    @Override
    public String toString() {
        return (name == null ? "(unnamed)" : name) + " (" + kind + ", running for " + Durations.format(age) + ")";
    }
}
