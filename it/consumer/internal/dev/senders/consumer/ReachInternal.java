package dev.senders.consumer;

import dev.senders.internal.Trampoline;

// Code that reaches into dev.senders.internal, which sender-core exports only to the adapter
// modules. scripts/consumer-test.sh adds it to the consumer: on the class path it compiles (nothing
// is enforced there), on the module path the compile must fail.
final class ReachInternal {
    static final Class<?> INTERNAL = Trampoline.class;
}
