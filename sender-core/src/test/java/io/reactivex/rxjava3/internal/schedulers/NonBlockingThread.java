package io.reactivex.rxjava3.internal.schedulers;

/** A stand-in with the name of RxJava 3's marker interface (test support only; the real one is tested in rxjava-adapter). */
public interface NonBlockingThread {
}
