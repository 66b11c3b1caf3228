package dev.senders.scope;

import dev.senders.internal.Durations;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * A view of a scope's outstanding work that stays one screen at any size: the oldest few pieces
 * of listed work (at most a limit, oldest first) and a summary of all of it (how many by name and
 * by kind, the oldest age, how many are not shown). Shutdown reports, the Spring Boot starter's
 * endpoint and its log lines use it; the full list stays available from {@code outstanding()}.
 *
 * <p>Listed work is what {@code outstanding()} lists: named work ({@link Scopes#named}), and all
 * work while debug capture is on or a flight recording enables per-work events. Other work is only
 * counted: {@link #total()} minus {@link #listed()} of it.
 *
 * <p>Taking a summary walks the scope's list once, keeping only the oldest {@code limit} entries
 * and at most {@value #MAX_NAMES_COUNTED} distinct names: its cost is linear in the outstanding
 * work and its memory bounded by the limit, whatever the number outstanding. An immutable snapshot;
 * {@link #total()} is read just before the walk, so under concurrent spawns and completions the
 * parts may disagree slightly (as {@code count()} and {@code outstanding()} read one after the other
 * do).
 */
public final class OutstandingSummary {

    /** The list limit used where none is given. */
    public static final int DEFAULT_LIMIT = 20;
    /** Names shown in {@link #byName()} and {@link #toString()}; the others are added up in {@link #otherNames()}. */
    public static final int MAX_NAMES_SHOWN = 10;
    /** Distinct names counted per summary; work with further names is counted in {@link #otherNames()}. */
    public static final int MAX_NAMES_COUNTED = 1024;
    /** The key of unnamed listed work in {@link #byName()}. */
    public static final String UNNAMED = "(unnamed)";

    private final String scope;
    private final int limit;
    private final long total;
    private final long listed;
    private final List<OutstandingWork> oldest;
    private final Map<String, Long> byName;
    private final long otherNames;
    private final Map<String, Long> byKind;
    private final @Nullable Duration oldestAge;

    OutstandingSummary(String scope, int limit, long total, long listed, List<OutstandingWork> oldest,
            Map<String, Long> byName, long otherNames, Map<String, Long> byKind, @Nullable Duration oldestAge) {
        this.scope = scope;
        this.limit = limit;
        this.total = Math.max(total, listed);
        this.listed = listed;
        this.oldest = List.copyOf(oldest);
        this.byName = Collections.unmodifiableMap(byName);
        this.otherNames = otherNames;
        this.byKind = Collections.unmodifiableMap(byKind);
        this.oldestAge = oldestAge;
    }

    /**
     * The summary of {@code scope}'s outstanding work with the {@link #DEFAULT_LIMIT}.
     *
     * @param scope the scope
     * @return its summary now
     * @throws NullPointerException if {@code scope} is null
     */
    public static OutstandingSummary of(AbstractCountingScope scope) {
        return of(scope, DEFAULT_LIMIT);
    }

    /**
     * The summary of {@code scope}'s outstanding work, listing at most {@code limit} pieces.
     *
     * @param scope the scope
     * @param limit the most pieces of work to list (0 lists none: only the summary)
     * @return its summary now
     * @throws NullPointerException if {@code scope} is null
     * @throws IllegalArgumentException if {@code limit} is negative
     */
    public static OutstandingSummary of(AbstractCountingScope scope, int limit) {
        return of(Objects.requireNonNull(scope, "scope").core(), limit);
    }

    /** Nothing outstanding. */
    static OutstandingSummary empty(String scope, int limit) {
        return new OutstandingSummary(scope, limit, 0L, 0L, List.of(), Map.of(), 0L, Map.of(), null);
    }

    static OutstandingSummary of(ScopeCore core, int limit) {
        checkLimit(limit);
        long total = core.count();
        if (total == 0L) {
            // nothing to walk (and no side object to create for a scope that has none)
            return empty(core.name(), limit);
        }
        return core.diagnostics().summary(core.name(), total, limit);
    }

    /**
     * Checks a list limit.
     *
     * @param limit the most pieces of work a view lists
     * @return {@code limit}
     * @throws IllegalArgumentException if {@code limit} is negative
     */
    public static int checkLimit(int limit) {
        if (limit < 0) {
            throw new IllegalArgumentException("the list limit must be zero or positive, was " + limit
                    + ": it is how many pieces of outstanding work a view lists before it summarizes the rest");
        }
        return limit;
    }

    /**
     * The scope's name.
     *
     * @return the name of the scope summarized
     */
    public String scope() {
        return scope;
    }

    /**
     * The most pieces of work this summary lists.
     *
     * @return the limit it was taken with
     */
    public int limit() {
        return limit;
    }

    /**
     * All work associated with the scope (its {@code count()}), listed or not.
     *
     * @return the outstanding operations
     */
    public long total() {
        return total;
    }

    /**
     * The outstanding work the scope can list (named, or all under debug capture), shown or not.
     *
     * @return the listable operations
     */
    public long listed() {
        return listed;
    }

    /**
     * Operations only counted, not listable (unnamed, spawned without debug capture).
     *
     * @return {@code total() - listed()}
     */
    public long unlisted() {
        return total - listed;
    }

    /**
     * The oldest listed work, oldest first, at most {@link #limit()} pieces.
     *
     * @return the work shown
     */
    public List<OutstandingWork> oldest() {
        return oldest;
    }

    /**
     * Outstanding operations not in {@link #oldest()}: beyond the limit, or not listable.
     *
     * @return {@code total() - oldest().size()}
     */
    public long notShown() {
        return total - oldest.size();
    }

    /**
     * Listed work by name, most frequent first, at most {@link #MAX_NAMES_SHOWN} names (unnamed work
     * listed under debug capture is counted under {@link #UNNAMED}).
     *
     * @return name to number of running operations
     */
    public Map<String, Long> byName() {
        return byName;
    }

    /**
     * Listed work whose name is not in {@link #byName()}.
     *
     * @return the number of such operations
     */
    public long otherNames() {
        return otherNames;
    }

    /**
     * Listed work by kind ({@code spawn}, {@code spawnFuture}, {@code nest}).
     *
     * @return kind to number of running operations
     */
    public Map<String, Long> byKind() {
        return byKind;
    }

    /**
     * How long the oldest listed work had been running.
     *
     * @return its age, or empty when nothing is listed
     */
    public Optional<Duration> oldestAge() {
        return Optional.ofNullable(oldestAge);
    }

    /**
     * The summary lines for a log, each starting with a line break and two spaces: the oldest listed
     * work, one a line (with at most {@code maxFrames} spawn-site frames each), then one line for what
     * is not shown. At most {@link #limit()} {@code * (1 + maxFrames) + 2} lines whatever the number
     * outstanding.
     *
     * @param maxFrames the most spawn-site frames printed per piece of work
     * @return the lines, empty when nothing is outstanding
     */
    public String lines(int maxFrames) {
        return lines(maxFrames, frame -> true);
    }

    /**
     * {@link #lines(int)} printing only the spawn-site frames {@code shown} accepts (the first
     * {@code maxFrames} of them); the frames left out are counted on a {@code "... n more"} line.
     * For views that hide a framework's frames around the caller's.
     *
     * @param maxFrames the most spawn-site frames printed per piece of work
     * @param shown which frames may be printed
     * @return the lines, empty when nothing is outstanding
     * @throws NullPointerException if {@code shown} is null
     */
    public String lines(int maxFrames, Predicate<? super StackTraceElement> shown) {
        Objects.requireNonNull(shown, "shown");
        StringBuilder sb = new StringBuilder();
        for (OutstandingWork w : oldest) {
            sb.append("\n  ").append(w);
            List<StackTraceElement> site = w.spawnSite();
            int printed = 0;
            for (StackTraceElement frame : site) {
                if (printed < maxFrames && shown.test(frame)) {
                    sb.append("\n      at ").append(frame);
                    printed++;
                }
            }
            if (site.size() > printed && maxFrames > 0) {
                sb.append("\n      ... ").append(site.size() - printed).append(" more");
            }
        }
        long beyond = listed - oldest.size();
        if (beyond > 0) {
            sb.append("\n  ").append(beyond).append(" more listed operation(s) not shown (limit ").append(limit)
                    .append("): ").append(counts());
        }
        long unlisted = unlisted();
        if (unlisted > 0) {
            sb.append("\n  ").append(unlisted).append(" unnamed operation(s) not listed (name work with"
                    + " Scopes.named, or run with -Ddev.senders.debug=true to list all work with its spawn site)");
        }
        return sb.toString();
    }

    /** {@code "by name: audit 1500, mail 700, 12 other; by kind: spawn 2212; oldest running for 3.2 s"}. */
    private String counts() {
        StringBuilder sb = new StringBuilder("by name: ");
        boolean first = true;
        for (Map.Entry<String, Long> e : byName.entrySet()) {
            sb.append(first ? "" : ", ").append(e.getKey()).append(' ').append(e.getValue());
            first = false;
        }
        if (otherNames > 0) {
            sb.append(first ? "" : ", ").append(otherNames).append(" under other names");
        }
        sb.append("; by kind: ");
        first = true;
        for (Map.Entry<String, Long> e : byKind.entrySet()) {
            sb.append(first ? "" : ", ").append(e.getKey()).append(' ').append(e.getValue());
            first = false;
        }
        if (oldestAge != null) {
            sb.append("; oldest running for ").append(Durations.format(oldestAge));
        }
        return sb.toString();
    }

    /** A line of counts and then {@link #lines(int)} with 8 frames per piece of work. */
    @Override
    public String toString() {
        return "scope '" + scope + "': " + total + " outstanding, " + listed + " listed" + lines(8);
    }
}
