package dev.senders.examples.webflux;

import org.reactivestreams.Publisher;

/** Starts a side effect in the background, without waiting for it. */
public interface Auditor {

    /**
     * Subscribes to {@code sideEffect} now and lets it run on its own.
     *
     * @return {@code true} if the side effect was started, {@code false} if it was refused (the
     *         application is shutting down, or too many side effects are running) and will never run
     */
    boolean submit(Publisher<?> sideEffect);

    /** Whether side effects are taken at all: {@code false} once the application is shutting down. */
    boolean accepting();

    /** Side effects still running (-1 when the auditor does not know). */
    long running();

    /** Side effects that failed, their errors routed to the log (-1 when the auditor does not know). */
    long failed();
}
