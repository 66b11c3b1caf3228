/**
 * Project Reactor interop: {@code Mono}, {@code Flux} and {@code Publisher} to and from senders,
 * scopes as Reactor {@code Disposable}s, Reactor {@code Scheduler} and {@code Context} mapping.
 */
package dev.senders.reactor;
