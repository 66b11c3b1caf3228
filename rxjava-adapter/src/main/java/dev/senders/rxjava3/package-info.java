/**
 * RxJava 3 interop: {@code Single}, {@code Maybe}, {@code Completable}, {@code Flowable} and
 * {@code Observable} to and from senders, scopes as {@code DisposableContainer}s, RxJava
 * {@code Scheduler} mapping.
 */
package dev.senders.rxjava3;
