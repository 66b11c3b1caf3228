package dev.senders.test;

import java.util.function.Predicate;

/**
 * Which spawn-site frames a test failure prints: by default only the caller's, leaving out the
 * frames of Reactor, RxJava, Netty, Spring, the JDK (its reflection included), the JUnit Platform,
 * Gradle/Maven test runners and the library itself, so the line that spawned the work is near the
 * top; the setting {@value #FULL_PROPERTY}{@code =true} (a JUnit configuration parameter, a Spring
 * property or a system property) prints every frame. The frames left out are counted on a
 * {@code "... n more"} line.
 */
final class SpawnSites {

    /** The setting that prints whole spawn sites. */
    static final String FULL_PROPERTY = "senders.test.full-spawn-sites";

    /** Frames printed per piece of work. */
    static final int MAX_FRAMES = 12;

    private static final String[] FRAMEWORK_PREFIXES = {
        "java.", "javax.", "jdk.", "sun.", "com.sun.",
        "reactor.", "io.reactivex.", "io.netty.", "io.micrometer.", "kotlin.", "kotlinx.",
        "org.springframework.", "org.junit.", "junit.", "org.apache.maven.surefire.", "org.gradle.",
        "org.eclipse.jdt.internal.junit", "com.intellij.",
        "dev.senders.scope.", "dev.senders.internal.", "dev.senders.reactor.", "dev.senders.rxjava3.",
        "dev.senders.spring.boot.", "dev.senders.flow.", "dev.senders.task.",
    };

    /** The library's own packages that have subpackages of user code (test fixtures): matched exactly. */
    private static final String[] LIBRARY_PACKAGES = {"dev.senders", "dev.senders.test"};

    private SpawnSites() {}

    /**
     * The frames to print.
     *
     * @param full whether {@value #FULL_PROPERTY} is set to {@code true}
     * @return a filter accepting every frame when {@code full}, else only the caller's frames
     */
    static Predicate<StackTraceElement> shown(boolean full) {
        return full ? frame -> true : SpawnSites::isCallers;
    }

    static boolean isCallers(StackTraceElement frame) {
        String cls = frame.getClassName();
        for (String prefix : FRAMEWORK_PREFIXES) {
            if (cls.startsWith(prefix)) {
                return false;
            }
        }
        int dot = cls.lastIndexOf('.');
        String pkg = dot < 0 ? "" : cls.substring(0, dot);
        for (String p : LIBRARY_PACKAGES) {
            if (p.equals(pkg)) {
                return false;
            }
        }
        return true;
    }
}
