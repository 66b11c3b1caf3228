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

    // BlockHound is optional: with it on the path, BlockHound.install() loads our integration
    requires static reactor.blockhound;

    exports dev.senders.reactor;

    provides reactor.blockhound.integration.BlockHoundIntegration
            with dev.senders.reactor.SendersBlockHoundIntegration;
}
