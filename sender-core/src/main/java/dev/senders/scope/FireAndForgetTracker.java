package dev.senders.scope;

import dev.senders.Hooks;
import dev.senders.internal.Durations;
import dev.senders.internal.SharedTimer;
import dev.senders.internal.VarHandles;
import dev.senders.scope.internal.FireAndForgetToken;
import dev.senders.scope.internal.FireAndForgetWork;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.LongAdder;
import org.jspecify.annotations.Nullable;

/**
 * The fire-and-forget subscriptions one adapter's hooks found for one scope: how many were found,
 * which are still running (subscribe site, kind, age), and how many ran untracked because the
 * scope was already closed. Made by {@code dev.senders.reactor.FireAndForget.install} and
 * {@code dev.senders.rxjava3.FireAndForget.install}; {@link #close()} removes the hooks (a
 * subscription already found keeps its association until it ends). All methods are thread-safe;
 * the read methods return snapshots.
 *
 * <p><b>Which subscriptions are found.</b> The adapter hands over each subscription whose
 * subscriber is one of its library's lambda subscribers, with the first callback given to
 * {@code subscribe} (or none, for {@code subscribe()}). It is the application's, and found, unless
 * its origin is in one of the framework packages ({@link #DEFAULT_FRAMEWORK_PACKAGES}, or the list
 * given to {@code install}): the origin is the class of the callback (a lambda's class is named
 * after the class that wrote it), or, without a callback or when site capture is on, the subscribe
 * site: the first frame of the calling thread's stack outside Reactor, RxJava, the JDK and this
 * feature's classes, found by a walk of at most {@value #MAX_WALK} frames (a site beyond them is
 * not reported). Site capture is on when asked for at install or while
 * {@link Hooks#isDebugCaptureEnabled() debug capture} is on; without it a subscription with a
 * callback is labelled with the callback's class only (no stack walk).
 *
 * <p><b>Modes.</b> In {@link FireAndForgetMode#REPORT} a found subscription is only counted and
 * listed. In {@link FireAndForgetMode#TRACK} it is also associated with the scope
 * ({@code tryAssociate}) when found; a closed scope refuses it, and it then runs untracked, counted
 * by {@link #untrackedCount()} and still listed. A {@code TRACK} tracker registers one callback on
 * the scope's stop token when it is made, kept until the scope's stop (also after {@link #close()}:
 * the subscriptions it found before must still stop with the scope): install one tracker per scope,
 * for the scope's life, not one per unit of work.
 *
 * <p>Listing adds nothing to the subscribe path: each found subscription is one object (the
 * adapter's subscriber), linked as its stop registration into the stop source of the tracker's
 * token for it, one for tracked and one for untracked subscriptions; {@link #running()},
 * {@link #activeCount()} and {@link #report()} walk those lists (a snapshot). The label of a
 * subscription is formatted when it is listed, not when it is found.
 */
public final class FireAndForgetTracker implements AutoCloseable {
    /*
     * Implementation notes. The hot path is origin() then associate(): a ClassValue lookup of
     * the callback's class (its label, "" for framework code), or a stack walk that tests each
     * frame's class with a ClassValue (plumbing or not) and keeps the frame unformatted; then
     * the scope's tryAssociate (TRACK) and one LongAdder increment. The walk shows reflection
     * frames: they are in java. and jdk., plumbing to this walk, so the site found is the same,
     * and the JDK 17 walker then does not test each frame's class for reflection; hidden frames
     * (lambda forms) stay hidden. It reads the frames through the stream's iterator, with no
     * stream stage of its own. The work itself
     * (dev.senders.scope.internal.FireAndForgetWork) links into the token's stop source and
     * unlinks when it ends, exactly once (SpawnedWork's state machine). The tracked token's
     * source is stopped from this tracker's one registration on the scope's stop token, which
     * first counts the subscriptions still running by label: each of them ends after the stop
     * request.
     */

    /**
     * Where framework code lives, by package prefix: subscriptions whose origin is in one of these
     * are never found (Reactor Netty's, Spring's, Micrometer's, the library's own).
     */
    public static final List<String> DEFAULT_FRAMEWORK_PACKAGES = List.of("reactor.", "io.reactivex.", "io.netty.",
            "org.springframework.", "io.micrometer.", "org.reactivestreams.", "io.r2dbc.", "java.", "javax.", "jdk.",
            "sun.", "com.sun.", "kotlin.", "kotlinx.", "dev.senders.reactor.", "dev.senders.rxjava3.",
            "dev.senders.spring.", "dev.senders.scope.", "dev.senders.internal.", "dev.senders.flow.",
            "dev.senders.task.");

    /** At most this many frames are walked to find a subscribe site. */
    public static final int MAX_WALK = 128;

    /** Frames skipped when looking for the subscribe site: the libraries' and this feature's. */
    private static final String[] PLUMBING = {"java.", "jdk.", "sun.", "reactor.core.", "reactor.util.",
        "io.reactivex.rxjava3."};
    /** This feature's classes (and their nested classes), also skipped. */
    private static final String[] OWN = {"dev.senders.reactor.FireAndForget", "dev.senders.reactor.FireAndForgetSubscriber",
        "dev.senders.rxjava3.FireAndForget", "dev.senders.rxjava3.FireAndForgetObserver",
        "dev.senders.scope.FireAndForgetTracker"};

    private static final int REPORT_LINES = 10;
    private static final int MAX_LABELS = 64;
    private static final StackWalker WALKER = StackWalker.getInstance(java.util.Set.of(
            StackWalker.Option.RETAIN_CLASS_REFERENCE, StackWalker.Option.SHOW_REFLECT_FRAMES), 16);
    /** Whether a frame's class is the libraries' or this feature's (skipped by the site walk). */
    private static final ClassValue<Boolean> PLUMBING_CLASS = new ClassValue<>() {
        @Override
        protected Boolean computeValue(Class<?> type) {
            return isPlumbing(type.getName());
        }
    };
    private static final java.util.function.Function<java.util.stream.Stream<StackWalker.StackFrame>,
            StackWalker.StackFrame> SITE = FireAndForgetTracker::siteFrame;
    private static final CopyOnWriteArrayList<FireAndForgetTracker> INSTALLED = new CopyOnWriteArrayList<>();

    private final String adapter;
    private final CountingScope scope;
    private final AsyncScopeToken token;
    /** TRACK: the token of the subscriptions associated with the scope; else null. */
    private final @Nullable FireAndForgetToken trackedToken;
    /** The token of the subscriptions associated with nothing (REPORT; TRACK once the scope closed). */
    private final FireAndForgetToken untrackedToken = new FireAndForgetToken(null);
    private final FireAndForgetMode mode;
    private final String[] framework;
    private final boolean captureSites;
    private final LongAdder found = new LongAdder();
    private final LongAdder untracked = new LongAdder();
    /** TRACK: subscriptions that ended after the scope's stop request, by label (at most MAX_LABELS). */
    private final ConcurrentHashMap<String, LongAdder> afterStop = new ConcurrentHashMap<>();
    private final LongAdder afterStopTotal = new LongAdder();
    /** The label of a callback class, or "" for a framework class. */
    private final ClassValue<String> labels = new ClassValue<>() {
        @Override
        protected String computeValue(Class<?> type) {
            String name = type.getName();
            int lambda = name.indexOf("$$Lambda");
            String origin = lambda < 0 ? name : name.substring(0, lambda);
            return isFramework(origin) ? "" : origin;
        }
    };
    private volatile @Nullable Runnable uninstall;
    private volatile int closed;

    /**
     * For the adapters' {@code install}: a tracker for {@code scope}; the adapter hands its hook
     * removal to {@link #onClose} once its hooks are in place.
     *
     * @param adapter the adapter's name for reports ({@code "Reactor"}, {@code "RxJava"})
     * @param scope the scope found subscriptions are associated with (in {@code TRACK})
     * @param mode {@code REPORT} or {@code TRACK}
     * @param frameworkPackages package prefixes whose subscriptions are never found
     * @param captureSites whether to walk the stack for every found subscription
     * @throws IllegalArgumentException if {@code mode} is {@code OFF} (nothing to track: install nothing)
     */
    public FireAndForgetTracker(String adapter, CountingScope scope, FireAndForgetMode mode,
            Collection<String> frameworkPackages, boolean captureSites) {
        this.adapter = Objects.requireNonNull(adapter, "adapter");
        this.scope = Objects.requireNonNull(scope, "scope");
        this.mode = Objects.requireNonNull(mode, "mode");
        if (mode == FireAndForgetMode.OFF) {
            throw new IllegalArgumentException("fire-and-forget mode OFF installs nothing: do not install a"
                    + " tracker for it (use REPORT to list fire-and-forget subscriptions, TRACK to join them)");
        }
        this.token = scope.getToken();
        this.framework = frameworkPackages.toArray(new String[0]);
        this.captureSites = captureSites;
        if (mode == FireAndForgetMode.TRACK) {
            FireAndForgetToken t = new FireAndForgetToken(token);
            trackedToken = t;
            scope.stopToken().onStop(() -> scopeStopped(t)); // lives as long as the scope's stop source
        } else {
            trackedToken = null;
        }
    }

    /** The scope's stop: counts the tracked subscriptions still running by label, then stops them. */
    private void scopeStopped(FireAndForgetToken tracked) {
        tracked.forEachRunning(w -> endedAfterStop(label(w.origin())));
        tracked.stop();
    }

    /**
     * The trackers installed now, oldest first (a snapshot): test support checks them at the end of
     * a test.
     *
     * @return the installed trackers
     */
    public static List<FireAndForgetTracker> installed() {
        return List.copyOf(INSTALLED);
    }

    /**
     * For the adapters, once the hooks are installed: what {@link #close()} runs once (removing the
     * hooks); from now until closed this tracker is listed by {@link #installed()}.
     *
     * @param action the hook removal
     */
    public void onClose(Runnable action) {
        uninstall = Objects.requireNonNull(action, "action");
        INSTALLED.add(this);
    }

    /**
     * For the adapters' hooks, first: a subscription with a lambda subscriber starts. Returns its
     * origin if it is a fire-and-forget subscription of the application (the callback's class, or
     * the subscribe site), or {@code null} if its origin is framework code, it has no site within
     * the walk, or this tracker is closed: then it must run as it would without the hooks.
     *
     * @param callback the first callback given to {@code subscribe}, or {@code null}
     * @return the origin to start the adapter's work with, or {@code null}
     */
    public @Nullable Object origin(@Nullable Object callback) {
        if (closed != 0) {
            return null;
        }
        Class<?> type = null;
        if (callback != null) {
            type = callback.getClass();
            if (labels.get(type).isEmpty()) {
                return null;
            }
        }
        boolean capture = captureSites || Hooks.isDebugCaptureEnabled();
        if (type != null && !capture) {
            return type;
        }
        StackWalker.StackFrame f = WALKER.walk(SITE);
        if (f == null || labels.get(f.getDeclaringClass()).isEmpty()) {
            return null;
        }
        return capture ? new StackTraceElement[] {f.toStackTraceElement()} : f;
    }

    /**
     * For the adapters' hooks, once {@link #origin} found the subscription: counts it and, in
     * {@code TRACK}, associates it with the scope. Returns the token to start the adapter's work
     * with ({@code FireAndForgetWork.start}); a closed scope's refusal gives the untracked token
     * and is counted by {@link #untrackedCount()}.
     *
     * @return the tracked token, or the untracked one
     */
    public AsyncScopeToken associate() {
        found.increment();
        FireAndForgetToken t = trackedToken;
        if (t == null) {
            return untrackedToken;
        }
        if (token.tryAssociate()) {
            return t;
        }
        untracked.increment();
        return untrackedToken;
    }

    /** The first frame outside the libraries and this feature, within {@link #MAX_WALK} frames. */
    private static StackWalker.@Nullable StackFrame siteFrame(java.util.stream.Stream<StackWalker.StackFrame> frames) {
        java.util.Iterator<StackWalker.StackFrame> it = frames.iterator();
        for (int i = 0; i < MAX_WALK && it.hasNext(); i++) {
            StackWalker.StackFrame f = it.next();
            if (!PLUMBING_CLASS.get(f.getDeclaringClass())) {
                return f;
            }
        }
        return null;
    }

    /** The label of an origin: the callback's class, or the site's frame formatted. */
    private String label(Object origin) {
        if (origin instanceof Class) {
            return labels.get((Class<?>) origin);
        }
        StackTraceElement e = origin instanceof StackTraceElement[] ? ((StackTraceElement[]) origin)[0]
                : ((StackWalker.StackFrame) origin).toStackTraceElement();
        return format(e);
    }

    /** {@code com.acme.Orders.place(Orders.java:42)}: the frame without its module and class loader. */
    private static String format(StackTraceElement e) {
        String file = e.getFileName();
        int line = e.getLineNumber();
        return e.getClassName() + "." + e.getMethodName() + "("
                + (file == null ? "Unknown Source" : line >= 0 ? file + ":" + line : file) + ")";
    }

    private static boolean isPlumbing(String cls) {
        for (String p : PLUMBING) {
            if (cls.startsWith(p)) {
                return true;
            }
        }
        for (String c : OWN) {
            if (cls.startsWith(c) && (cls.length() == c.length() || cls.charAt(c.length()) == '$')) {
                return true;
            }
        }
        return false;
    }

    private boolean isFramework(String cls) {
        for (String p : framework) {
            if (cls.startsWith(p)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The mode installed.
     *
     * @return {@code REPORT} or {@code TRACK}
     */
    public FireAndForgetMode mode() {
        return mode;
    }

    /**
     * The scope found subscriptions are associated with in {@code TRACK}.
     *
     * @return the scope
     */
    public CountingScope scope() {
        return scope;
    }

    /**
     * The adapter that installed this tracker ({@code "Reactor"} or {@code "RxJava"}).
     *
     * @return the adapter's name
     */
    public String adapter() {
        return adapter;
    }

    /**
     * Fire-and-forget subscriptions found since install.
     *
     * @return the number found
     */
    public long foundCount() {
        return found.sum();
    }

    /**
     * Found subscriptions still running (tracked or not).
     *
     * @return the number running
     */
    public int activeCount() {
        int[] n = {0};
        forEachRunning((w, tracked) -> n[0]++);
        return n[0];
    }

    /** Each running subscription, with whether it is tracked. */
    private void forEachRunning(java.util.function.ObjIntConsumer<FireAndForgetWork> action) {
        FireAndForgetToken t = trackedToken;
        if (t != null) {
            t.forEachRunning(w -> action.accept(w, 1));
        }
        untrackedToken.forEachRunning(w -> action.accept(w, 0));
    }

    /**
     * Subscriptions found in {@code TRACK} that ran untracked because the scope was closed.
     *
     * @return the number refused by the scope
     */
    public long untrackedCount() {
        return untracked.sum();
    }

    /**
     * The found subscriptions still running, oldest first: the name is the subscribe site (or
     * the callback's class without site capture), the kind what was subscribed
     * ({@code "Mono.subscribe"}; {@code "Mono.subscribe, untracked"} for one the closed scope
     * refused in {@code TRACK}), {@link OutstandingWork#spawnSite()} the site's frames when
     * captured.
     *
     * @return a snapshot of the running subscriptions
     */
    public List<OutstandingWork> running() {
        long now = SharedTimer.nanoTime();
        Instant wall = Instant.now();
        List<OutstandingWork> out = new ArrayList<>();
        String scopeName = scope.name();
        boolean refusable = mode == FireAndForgetMode.TRACK;
        forEachRunning((w, tracked) -> {
            Object origin = w.origin();
            out.add(new OutstandingWork(scopeName, label(origin), tracked == 0 && refusable ? w.kind() + ", untracked"
                    : w.kind(), w.startNanos(), now, wall, origin instanceof StackTraceElement[]
                    ? ((StackTraceElement[]) origin).clone() : null));
        });
        out.sort(Comparator.comparing(OutstandingWork::age).reversed());
        return out;
    }

    /**
     * A shutdown-log summary: the counts, then (in {@code TRACK}) the subscriptions that ended
     * after the scope's stop request, then the running subscriptions, each grouped by label, the
     * most frequent first (at most ten lines each), e.g.
     * <pre>
     * fire-and-forget subscriptions (Reactor, TRACK, scope 'app'): 3012 found, 0 still running, 0 untracked (scope closed)
     *   2 ended after the scope's stop request (stopped past the grace):
     *     2 x com.acme.Orders.place(Orders.java:42)
     * </pre>
     *
     * @return the summary
     */
    public String report() {
        StringBuilder sb = new StringBuilder("fire-and-forget subscriptions (").append(adapter).append(", ")
                .append(mode).append(", scope '").append(scope.name()).append("'): ").append(foundCount())
                .append(" found, ").append(activeCount()).append(" still running, ").append(untrackedCount())
                .append(" untracked (scope closed)");
        Map<String, List<OutstandingWork>> bySite = new LinkedHashMap<>();
        for (OutstandingWork w : running()) {
            bySite.computeIfAbsent(w.name().orElse("?") + " (" + w.kind(), k -> new ArrayList<>()).add(w);
        }
        List<Map.Entry<String, List<OutstandingWork>>> groups = new ArrayList<>(bySite.entrySet());
        groups.sort((a, b) -> Integer.compare(b.getValue().size(), a.getValue().size()));
        long stopped = endedAfterStopCount();
        if (stopped > 0) {
            sb.append("\n  ").append(stopped).append(" ended after the scope's stop request (stopped past the grace):");
            List<Map.Entry<String, LongAdder>> byLabel = new ArrayList<>(afterStop.entrySet());
            byLabel.sort((a, b) -> Long.compare(b.getValue().sum(), a.getValue().sum()));
            for (int i = 0; i < byLabel.size() && i < REPORT_LINES; i++) {
                sb.append("\n    ").append(byLabel.get(i).getValue().sum()).append(" x ").append(byLabel.get(i).getKey());
            }
        }
        if (!groups.isEmpty()) {
            sb.append("\n  still running:");
        }
        int lines = 0;
        for (Map.Entry<String, List<OutstandingWork>> g : groups) {
            if (lines++ == REPORT_LINES) {
                sb.append("\n    ... ").append(groups.size() - REPORT_LINES).append(" more site(s)");
                break;
            }
            sb.append("\n    ").append(g.getValue().size()).append(" x ").append(g.getKey())
                    .append(", oldest running for ").append(Durations.format(g.getValue().get(0).age())).append(')');
        }
        return sb.toString();
    }

    /**
     * Removes the hooks (idempotent); found subscriptions still running keep their association
     * until they end. Stops listing this tracker in {@link #installed()}.
     */
    @Override
    public void close() {
        if (CLOSED.compareAndSet(this, 0, 1)) {
            INSTALLED.remove(this);
            Runnable r = uninstall;
            if (r != null) {
                r.run();
            }
        }
    }

    private void endedAfterStop(String label) {
        afterStopTotal.increment();
        LongAdder a = afterStop.get(label);
        if (a == null && afterStop.size() < MAX_LABELS) {
            a = afterStop.computeIfAbsent(label, k -> new LongAdder());
        }
        if (a != null) {
            a.increment();
        }
    }

    /**
     * In {@code TRACK}: tracked subscriptions that ended after the scope's stop request (stopped by
     * it, or ending on their own meanwhile).
     *
     * @return the number ended after the stop request
     */
    public long endedAfterStopCount() {
        return afterStopTotal.sum();
    }

    /**
     * Whether {@link #close()} was called.
     *
     * @return {@code true} once closed
     */
    public boolean isClosed() {
        return closed != 0;
    }

    @Override
    public String toString() {
        return "FireAndForgetTracker[" + adapter + ", " + mode + ", scope '" + scope.name() + "', running="
                + activeCount() + (isClosed() ? ", closed" : "") + "]";
    }

    private static final VarHandle CLOSED = VarHandles.field(MethodHandles.lookup(), FireAndForgetTracker.class, "closed", int.class);
}
