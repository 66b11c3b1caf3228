/**
 * Senders and receivers (P2300), stop tokens, schedulers, the sender algorithms, async scopes
 * (P3149, P3296) and a lazy task (P3552) for the JVM. JDK only.
 *
 * <p>The API packages are {@link dev.senders} (the sender/receiver model, stop tokens, schedulers,
 * algorithms, {@code syncWait}), {@link dev.senders.scope} (async scopes, {@code spawn},
 * {@code nest}), {@link dev.senders.task} ({@code Task}) and {@link dev.senders.flow}
 * ({@link java.util.concurrent.Flow} interop).
 *
 * <p>The packages the adapters share are not API: {@code dev.senders.internal} (platform
 * utilities: the trampoline, the schedule operation, timers, JFR events, thread kinds),
 * {@code dev.senders.internal.signal}
 * (the receiver contract: signal helpers, receiver guards, checked connect, stop registrations),
 * {@code dev.senders.internal.rs} (the Reactive Streams boundary core) and
 * {@code dev.senders.scope.internal} (the adapters' spawn and container code, which uses the scope
 * API). They are exported only to the adapter modules (and {@code dev.senders.internal} to
 * {@code dev.senders.test}, whose virtual time replaces the library's timer), so a module-path
 * application cannot read them. (On the class path nothing is enforced; do not use them there
 * either, they change without notice.)
 */
module dev.senders.core {
    // JFR events for spawn, completion and joins (jdk.jfr is in every full JDK image; disabled
    // events cost a flag read)
    requires jdk.jfr;

    // JSpecify's @NullMarked / @Nullable state the API's nullness. Needed to compile against this
    // module (transitive: a reader of the API reads the annotations), optional at run time
    // (annotations whose class is absent are ignored).
    requires static transitive org.jspecify;

    exports dev.senders;
    exports dev.senders.flow;
    exports dev.senders.scope;
    exports dev.senders.task;

    exports dev.senders.internal to dev.senders.reactor, dev.senders.rxjava3, dev.senders.test;
    exports dev.senders.internal.signal to dev.senders.reactor, dev.senders.rxjava3;
    exports dev.senders.internal.rs to dev.senders.reactor, dev.senders.rxjava3;
    exports dev.senders.scope.internal to dev.senders.reactor, dev.senders.rxjava3;
}
