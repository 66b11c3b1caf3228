package dev.senders.rxjava3;

import dev.senders.scope.AsyncScopeToken;
import io.reactivex.rxjava3.disposables.Disposable;
import io.reactivex.rxjava3.processors.PublishProcessor;
import io.reactivex.rxjava3.subjects.CompletableSubject;
import io.reactivex.rxjava3.subjects.MaybeSubject;
import io.reactivex.rxjava3.subjects.PublishSubject;
import io.reactivex.rxjava3.subjects.SingleSubject;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * One controllable hot source per RxJava type, for the {@code RxScopes.spawn} tests: spawn it,
 * see whether it is subscribed, and make it succeed or fail.
 */
abstract class SpawnCases {

    abstract Disposable spawn(AsyncScopeToken token);

    abstract boolean subscribed();

    /** The source's success/completion (a Flowable/Observable emits an element first). */
    abstract void succeed();

    abstract void fail(Throwable e);

    static Stream<Supplier<SpawnCases>> all() {
        return Stream.of(SpawnCases::completable, SpawnCases::single, SpawnCases::maybe,
                SpawnCases::flowable, SpawnCases::observable);
    }

    static SpawnCases completable() {
        CompletableSubject s = CompletableSubject.create();
        return new SpawnCases() {
            Disposable spawn(AsyncScopeToken t) { return RxScopes.spawn(s, t); }
            boolean subscribed() { return s.hasObservers(); }
            void succeed() { s.onComplete(); }
            void fail(Throwable e) { s.onError(e); }
            public String toString() { return "Completable"; }
        };
    }

    static SpawnCases single() {
        SingleSubject<Integer> s = SingleSubject.create();
        return new SpawnCases() {
            Disposable spawn(AsyncScopeToken t) { return RxScopes.spawn(s, t); }
            boolean subscribed() { return s.hasObservers(); }
            void succeed() { s.onSuccess(1); }
            void fail(Throwable e) { s.onError(e); }
            public String toString() { return "Single"; }
        };
    }

    static SpawnCases maybe() {
        MaybeSubject<Integer> s = MaybeSubject.create();
        return new SpawnCases() {
            Disposable spawn(AsyncScopeToken t) { return RxScopes.spawn(s, t); }
            boolean subscribed() { return s.hasObservers(); }
            void succeed() { s.onSuccess(1); }
            void fail(Throwable e) { s.onError(e); }
            public String toString() { return "Maybe"; }
        };
    }

    static SpawnCases flowable() {
        PublishProcessor<Integer> s = PublishProcessor.create();
        return new SpawnCases() {
            Disposable spawn(AsyncScopeToken t) { return RxScopes.spawn(s, t); }
            boolean subscribed() { return s.hasSubscribers(); }
            void succeed() { s.onNext(1); s.onComplete(); }
            void fail(Throwable e) { s.onError(e); }
            public String toString() { return "Flowable"; }
        };
    }

    static SpawnCases observable() {
        PublishSubject<Integer> s = PublishSubject.create();
        return new SpawnCases() {
            Disposable spawn(AsyncScopeToken t) { return RxScopes.spawn(s, t); }
            boolean subscribed() { return s.hasObservers(); }
            void succeed() { s.onNext(1); s.onComplete(); }
            void fail(Throwable e) { s.onError(e); }
            public String toString() { return "Observable"; }
        };
    }
}
