/**
 * RxJava 3 interop: {@code Single}, {@code Maybe}, {@code Completable}, {@code Flowable} and
 * {@code Observable} to and from senders, scopes as {@code DisposableContainer}s, RxJava
 * {@code Scheduler} mapping.
 */
@NullMarked
package dev.senders.rxjava3;

import org.jspecify.annotations.NullMarked;
