package dev.senders.tck;

import org.reactivestreams.tck.TestEnvironment;

/** The one place where the TCK's timeouts are chosen. */
final class Tck {

    private Tck() {}

    /**
     * The TCK's defaults, except that the time allowed for an expected signal is at least 1 s
     * instead of 100 ms: on a loaded two-core machine (load average 15) the TCK's own helper
     * publisher, which subscribes through an executor, took more than 300 ms to call
     * {@code onSubscribe}, failing a whitebox set-up before our code ran. A passing run never
     * waits for this bound. The "no signal expected" wait stays the TCK's default,
     * so the run takes no longer. Both still honour the TCK's environment variables
     * ({@code DEFAULT_TIMEOUT_MILLIS}, {@code DEFAULT_NO_SIGNALS_TIMEOUT_MILLIS}).
     */
    static TestEnvironment env() {
        return new TestEnvironment(Math.max(1000L, TestEnvironment.envDefaultTimeoutMillis()),
                TestEnvironment.envDefaultNoSignalsTimeoutMillis());
    }
}
