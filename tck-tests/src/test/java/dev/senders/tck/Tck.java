package dev.senders.tck;

import org.reactivestreams.tck.TestEnvironment;

/** The one place where the TCK's timeouts are chosen. */
final class Tck {

    private Tck() {}

    /**
     * The TCK's own defaults ({@code DEFAULT_TIMEOUT_MILLIS}, 100 ms unless that environment
     * variable says otherwise), so the run is the stock TCK.
     */
    static TestEnvironment env() {
        return new TestEnvironment();
    }
}
