package dev.senders.examples.rxjava;

import java.time.Duration;

/** Sends notifications in the background; the caller never waits for a delivery. */
public interface NotificationService {

    /** Starts delivering {@code text} to {@code to}; returns at once. */
    void send(String to, String text);

    /**
     * Stops the service: no new notifications; waits up to {@code timeout} for the running ones
     * (if the implementation can), then stops what is left.
     *
     * @return whether every running delivery finished (was not stopped or abandoned)
     */
    boolean shutdown(Duration timeout) throws InterruptedException;
}
