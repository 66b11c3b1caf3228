/**
 * RxJava 3 interop for senders: {@code Single}, {@code Maybe}, {@code Completable},
 * {@code Flowable} and {@code Observable} to and from senders, RxJava {@code Scheduler}s, async
 * scopes as {@code DisposableContainer}s. See {@link dev.senders.rxjava3}.
 *
 * <p>Requiring this module gives a module-path application {@code dev.senders.core} and
 * {@code io.reactivex.rxjava3} (which itself gives {@code org.reactivestreams}) as well.
 */
module dev.senders.rxjava3 {
    requires transitive dev.senders.core;
    requires transitive io.reactivex.rxjava3;

    exports dev.senders.rxjava3;
}
