/**
 * Project Reactor interop for senders: {@code Mono}, {@code Flux} and {@code Publisher} to and
 * from senders, Reactor {@code Scheduler}s and {@code Context}, async scopes as Reactor
 * {@code Disposable}s. See {@link dev.senders.reactor}.
 *
 * <p>Requiring this module gives a module-path application {@code dev.senders.core},
 * {@code reactor.core} and {@code org.reactivestreams} as well (their types appear in this
 * module's API).
 */
module dev.senders.reactor {
    requires transitive dev.senders.core;
    requires transitive reactor.core;
    requires transitive org.reactivestreams;

    // BlockHound is optional. No `provides` clause: a service type from an absent optional module
    // would stop the module layer from resolving. On the class path BlockHound.install() finds the
    // integration through META-INF/services; on the module path pass it to
    // BlockHound.install(new SendersBlockHoundIntegration()).
    requires static reactor.blockhound;

    exports dev.senders.reactor;
}
