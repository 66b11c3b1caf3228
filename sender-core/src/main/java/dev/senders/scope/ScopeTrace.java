package dev.senders.scope;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * A note that names a scope and a piece of its work, attached to exceptions (as Reactor's
 * {@code checkpoint} attaches its assembly trace) without changing the exception type callers
 * catch:
 *
 * <ul>
 * <li>an error of work spawned into a {@link SimpleCountingScope} or {@link CountingScope}
 *     reaches its handler (or {@code Hooks.onErrorDropped}) with a {@code ScopeTrace}
 *     {@linkplain Throwable#addSuppressed suppressed}: the scope's name, and the work's name and
 *     kind when the work is named ({@link Scopes#named}) or tracked; so does an error of
 *     named work consumed through {@code spawnFuture} or {@code nest};
 * <li>a {@link ScopeLeakedException}'s cause, when debug capture was on as the scope was created,
 *     is a {@code ScopeTrace} whose stack trace is where the scope was created.
 * </ul>
 *
 * <p>When debug capture ({@code dev.senders.Hooks.enableDebugCapture()}) was on as the work was
 * spawned, the stack trace of the trace is the spawn site (library frames removed); otherwise the
 * trace has no stack trace. At most one {@code ScopeTrace} is added to an exception (the
 * innermost scope's): an exception instance shared by many failures keeps the first.
 * {@link #find(Throwable)} fetches it.
 */
public final class ScopeTrace extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** Leading frames of these classes (the library's association path) are dropped from sites. */
    private static final String[] LIBRARY_FRAMES = {
        "dev.senders.scope.ScopeTrace", "dev.senders.scope.ScopeCore", "dev.senders.scope.TrackedSender",
        "dev.senders.scope.Scopes", "dev.senders.scope.NestSender", "dev.senders.scope.SpawnFuture",
        "dev.senders.scope.CountingScope", "dev.senders.scope.SimpleCountingScope",
        "dev.senders.scope.AbstractCountingScope", "dev.senders.scope.ScopeBuilder",
        "dev.senders.scope.LetAsyncScope", "dev.senders.scope.NamedSender", "dev.senders.internal.signal.Connect",
    };

    /** The name of the scope. */
    private final String scope;
    /** The name of the work, or {@code null} if unnamed or for a creation site. */
    private final @Nullable String work;
    /** The kind of association, or {@code null} for a creation site. */
    private final @Nullable String kind;
    /** Whether the library frames were removed; done on first use (materializing a stack is the costly part). */
    private volatile boolean trimmed;

    ScopeTrace(String message, String scope, @Nullable String work, @Nullable String kind, boolean site) {
        super(message, null, false, site); // site: the JVM records the backtrace; frames are built lazily
        this.scope = scope;
        this.work = work;
        this.kind = kind;
        this.trimmed = !site;
    }

    /** The site's frames with the library's association frames removed (built and trimmed on first call). */
    @Override
    public StackTraceElement[] getStackTrace() {
        if (!trimmed) { // racing trims are harmless: trimming is idempotent
            setStackTrace(trimLibraryFrames(super.getStackTrace()));
            trimmed = true;
        }
        return super.getStackTrace();
    }

    @Override
    public void printStackTrace(java.io.PrintStream s) {
        getStackTrace();
        super.printStackTrace(s);
    }

    @Override
    public void printStackTrace(java.io.PrintWriter s) {
        getStackTrace();
        super.printStackTrace(s);
    }

    /** The trace of a spawn (or of a failure, when no site was captured). */
    static ScopeTrace ofWork(String scope, @Nullable String work, String kind, boolean site) {
        String w = work == null ? "unnamed work" : "work '" + work + "'";
        return new ScopeTrace(w + " (" + kind + ") in scope '" + scope + "'" + (site ? ", spawned here" : ""),
                scope, work, kind, site);
    }

    /** The creation site of a scope (captured only when debug capture is on). */
    static ScopeTrace ofCreation(String scope) {
        return new ScopeTrace("scope '" + scope + "' was created here", scope, null, null, true);
    }

    /**
     * The name of the scope.
     *
     * @return the name of the scope this trace belongs to
     */
    public String scopeName() {
        return scope;
    }

    /**
     * The name of the work, if it was named (empty for an unnamed one and for a creation site).
     *
     * @return the work's name, or empty
     */
    public Optional<String> workName() {
        return Optional.ofNullable(work);
    }

    /**
     * {@code "spawn"}, {@code "spawnFuture"} or {@code "nest"}; empty for a creation site.
     *
     * @return the kind of association, or empty
     */
    public Optional<String> kind() {
        return Optional.ofNullable(kind);
    }

    /**
     * The {@code ScopeTrace} suppressed by {@code error} (the innermost scope's), if any.
     *
     * @param error the exception to search; may be {@code null}
     * @return the trace, or empty if {@code error} is null or carries none
     */
    public static Optional<ScopeTrace> find(Throwable error) {
        if (error == null) {
            return Optional.empty();
        }
        for (Throwable s : error.getSuppressed()) {
            if (s instanceof ScopeTrace) {
                return Optional.of((ScopeTrace) s);
            }
        }
        return Optional.empty();
    }

    /** Adds {@code trace} to {@code error} unless it already carries one. */
    static void annotate(Throwable error, ScopeTrace trace) {
        if (error != trace && find(error).isEmpty()) {
            trace.getStackTrace(); // trimmed before it is printed as part of another exception
            error.addSuppressed(trace);
        }
    }

    private static StackTraceElement[] trimLibraryFrames(StackTraceElement[] st) {
        int i = 0;
        while (i < st.length && isLibrary(st[i].getClassName())) {
            i++;
        }
        List<StackTraceElement> kept = new ArrayList<>(st.length - i);
        for (; i < st.length; i++) {
            kept.add(st[i]);
        }
        return kept.toArray(new StackTraceElement[0]);
    }

    private static boolean isLibrary(String cls) {
        for (String p : LIBRARY_FRAMES) {
            if (cls.equals(p) || cls.startsWith(p + "$")) {
                return true;
            }
        }
        return false;
    }
}
