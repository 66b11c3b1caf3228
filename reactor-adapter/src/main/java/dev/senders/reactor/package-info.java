/**
 * Project Reactor interop: {@code Mono}, {@code Flux} and {@code Publisher} to and from senders
 * ({@link dev.senders.reactor.ReactorSenders}), the Reactor {@code Context} as the env query
 * {@link dev.senders.reactor.ReactorSenders#CONTEXT}, and Reactor {@code Scheduler}s to and from
 * sender schedulers ({@link dev.senders.reactor.ReactorSchedulers}), and async scopes as Reactor
 * {@code Disposable}s ({@link dev.senders.reactor.ReactorScopes}: spawn a publisher, nest a
 * publisher, a scope as a {@code Disposable.Composite}).
 *
 * <p>The mapping is the "Reactive Streams boundary" table of docs/design.md; the decisions taken where it is
 * silent are in this module's {@code README.md}. Undeliverable signals go to Reactor's own hooks
 * ({@code Operators.onErrorDropped}, {@code onNextDropped}, {@code onDiscard}) with the
 * subscriber's context.
 */
@NullMarked
package dev.senders.reactor;

import org.jspecify.annotations.NullMarked;
