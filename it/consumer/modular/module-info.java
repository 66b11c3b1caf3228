// The consumer as a named module: scripts/consumer-test.sh copies this file into
// src/main/java for its module-path build.
module dev.senders.consumer {
    requires dev.senders.reactor;  // gives dev.senders.core, reactor.core and org.reactivestreams too
}
