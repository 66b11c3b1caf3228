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
 *
 * <p>It is also the one renderer of outstanding work as text: {@link #lines(int, Predicate)} (log
 * lines: each piece of work as {@link OutstandingWork#toString()} says it, its spawn site cut to
 * {@link #DEFAULT_FRAMES} frames of application code, then what is not shown) and
 * {@link #spawnSite(OutstandingWork, int, Predicate)} (the frames a structured view shows). Shutdown
 * reports, leak reports, the Spring Boot starter's shutdown log and endpoint, and the test support's
 * failure messages print through them.
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
    /** Spawn-site frames printed per piece of work where none is given: shutdown and leak reports, the starter. */
    public static final int DEFAULT_FRAMES = 8;
    /**
     * Keeps the frames of application code: drops those of this library, its adapters, starter and
     * test support ({@code dev.senders} packages other than an application's own, such as the
     * examples'), of Reactor, RxJava, Netty, Micrometer, Spring, Kotlin, the JDK (reflection and
     * concurrency plumbing included) and of test runners (JUnit, Surefire, Gradle, IDEs), so that a
     * spawn site starts at the line that spawned. Classes named {@code ...Test} or {@code ...Tests}
     * are kept wherever they live.
     */
    public static final Predicate<StackTraceElement> APPLICATION_FRAMES = OutstandingSummary::isApplicationFrame;
    /** Keeps every frame. */
    public static final Predicate<StackTraceElement> ALL_FRAMES = frame -> true;

    /** Whether {@code className} (or its outermost class) is named {@code ...Test} or {@code ...Tests}. */
    private static boolean isTestClass(String className) {
        int nested = className.indexOf('$');
        String outer = nested < 0 ? className : className.substring(0, nested);
        return outer.endsWith("Test") || outer.endsWith("Tests");
    }

    /** Class-name prefixes of the frames {@link #APPLICATION_FRAMES} drops. */
    private static final String[] LIBRARY_PREFIXES = {
        "dev.senders.scope.", "dev.senders.internal.", "dev.senders.flow.", "dev.senders.task.",
        "dev.senders.reactor.", "dev.senders.rxjava3.", "dev.senders.spring.boot.",
        "java.", "javax.", "jdk.", "sun.", "com.sun.", "kotlin.", "kotlinx.",
        "reactor.", "io.reactivex.", "io.netty.", "io.micrometer.", "org.springframework.",
        "org.junit.", "junit.", "org.apache.maven.surefire.", "org.gradle.", "org.eclipse.jdt.internal.junit",
        "com.intellij.",
    };

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
     * {@link #lines(int, Predicate)} keeping every frame.
     *
     * @param maxFrames the most spawn-site frames printed per piece of work
     * @return the lines, empty when nothing is outstanding
     */
    public String lines(int maxFrames) {
        return lines(maxFrames, ALL_FRAMES);
    }

    /**
     * The summary lines for a log, each starting with a line break and two spaces: the oldest listed
     * work, one a line as {@link OutstandingWork#toString()} says it (queued or running, for how
     * long), each followed by at most {@code maxFrames} of its spawn-site frames that {@code frames}
     * keeps (captured under debug capture only) and a {@code "... n more"} line counting the frames
     * not printed, then one line for listed work not shown and one
     * for work the scope only counts. At most {@link #limit()} {@code * (2 + maxFrames) + 2} lines
     * whatever the number outstanding.
     *
     * @param maxFrames the most spawn-site frames printed per piece of work
     * @param frames    which frames to print ({@link #APPLICATION_FRAMES}, {@link #ALL_FRAMES})
     * @return the lines, empty when nothing is outstanding
     * @throws IllegalArgumentException if {@code maxFrames} is negative
     * @throws NullPointerException if {@code frames} is null
     */
    public String lines(int maxFrames, Predicate<StackTraceElement> frames) {
        checkFrames(maxFrames);
        Objects.requireNonNull(frames, "frames");
        StringBuilder sb = new StringBuilder();
        for (OutstandingWork w : oldest) {
            sb.append("\n  ").append(w);
            List<StackTraceElement> site = w.spawnSite();
            int kept = 0;
            for (StackTraceElement e : site) {
                if (kept < maxFrames && frames.test(e)) {
                    sb.append("\n      at ").append(e);
                    kept++;
                }
            }
            if (site.size() > kept && maxFrames > 0) {
                sb.append("\n      ... ").append(site.size() - kept).append(" more");
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

    /**
     * The spawn-site frames of {@code work} that a view shows: at most {@code maxFrames} of those
     * {@code frames} keeps, innermost first, as text; empty unless debug capture was on when it was
     * spawned. The frames {@link #lines(int, Predicate)} prints for it.
     *
     * @param work      a piece of outstanding work
     * @param maxFrames the most frames to return
     * @param frames    which frames to keep
     * @return the frames, e.g. {@code "com.acme.Orders.place(Orders.java:42)"}
     * @throws IllegalArgumentException if {@code maxFrames} is negative
     * @throws NullPointerException if {@code work} or {@code frames} is null
     */
    public static List<String> spawnSite(OutstandingWork work, int maxFrames, Predicate<StackTraceElement> frames) {
        checkFrames(maxFrames);
        Objects.requireNonNull(frames, "frames");
        return work.spawnSite().stream().filter(frames).limit(maxFrames).map(StackTraceElement::toString).toList();
    }

    private static void checkFrames(int maxFrames) {
        if (maxFrames < 0) {
            throw new IllegalArgumentException("the frame limit must be zero or positive, was " + maxFrames
                    + ": it is how many spawn-site frames are printed per piece of work");
        }
    }

    private static boolean isApplicationFrame(StackTraceElement frame) {
        String c = frame.getClassName();
        if (isTestClass(c)) {
            return true; // a test living in a library package is the application here
        }
        for (String p : LIBRARY_PREFIXES) {
            if (c.startsWith(p)) {
                return false;
            }
        }
        // classes of the core package itself (Senders, ...) and of the test support's package;
        // sub-packages not listed above (an application's, test fixtures) are kept
        boolean core = c.startsWith("dev.senders.") && c.indexOf('.', "dev.senders.".length()) < 0;
        boolean testSupport = c.startsWith("dev.senders.test.") && c.indexOf('.', "dev.senders.test.".length()) < 0;
        return !core && !testSupport;
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

    /**
     * A line of counts and then {@link #lines(int, Predicate)} with {@link #DEFAULT_FRAMES} frames of
     * application code per piece of work.
     */
    @Override
    public String toString() {
        return "scope '" + scope + "': " + total + " outstanding, " + listed + " listed"
                + lines(DEFAULT_FRAMES, APPLICATION_FRAMES);
    }
}
