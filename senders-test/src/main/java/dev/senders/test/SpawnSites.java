package dev.senders.test;

import dev.senders.scope.OutstandingSummary;
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

    private SpawnSites() {}

    /**
     * The frames to print.
     *
     * @param full whether {@value #FULL_PROPERTY} is set to {@code true}
     * @return a filter accepting every frame when {@code full}, else only the caller's frames
     */
    static Predicate<StackTraceElement> shown(boolean full) {
        return full ? OutstandingSummary.ALL_FRAMES : OutstandingSummary.APPLICATION_FRAMES;
    }
}
