/**
 * Senders and receivers (P2300), stop tokens, schedulers, the sender algorithms, async scopes
 * (P3149, P3296) and a lazy task (P3552) for the JVM. JDK only.
 *
 * <p>The API packages are {@link dev.senders} (the sender/receiver model, stop tokens, schedulers,
 * algorithms, {@code syncWait}), {@link dev.senders.scope} (async scopes, {@code spawn},
 * {@code nest}), {@link dev.senders.task} ({@code Task}) and {@link dev.senders.flow}
 * ({@link java.util.concurrent.Flow} interop).
 *
 * <p>{@code dev.senders.internal} holds the receiver guards and signal helpers the adapters share.
 * It is exported only to the adapter modules and to {@code dev.senders.test} (whose virtual time
 * replaces the library's timer): it is not API, and a module-path application cannot
 * read it. (On the class path nothing is enforced; do not use it there either, it changes without
 * notice.)
 */
module dev.senders.core {
    // JFR events for spawn, completion and joins (jdk.jfr is in every full JDK image; disabled
    // events cost a flag read)
    requires jdk.jfr;

    exports dev.senders;
    exports dev.senders.flow;
    exports dev.senders.scope;
    exports dev.senders.task;

    exports dev.senders.internal to dev.senders.reactor, dev.senders.rxjava3, dev.senders.test;
}
