package dev.senders.rxjava3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.Scheduler;
import dev.senders.Sender;
import dev.senders.Senders;
import dev.senders.scope.CountingScope;
import dev.senders.scope.Scopes;
import dev.senders.scope.ShutdownReport;
import io.reactivex.rxjava3.core.Completable;
import io.reactivex.rxjava3.core.Flowable;
import io.reactivex.rxjava3.core.Maybe;
import io.reactivex.rxjava3.core.Observable;
import io.reactivex.rxjava3.core.Single;
import io.reactivex.rxjava3.disposables.CompositeDisposable;
import io.reactivex.rxjava3.disposables.Disposable;
import io.reactivex.rxjava3.processors.PublishProcessor;
import io.reactivex.rxjava3.subjects.SingleSubject;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The code of rxjava-adapter/README.md, kept compiling and passing. */
class ReadmeExamplesTest {

    // ---- "From CompositeDisposable to a scope" ----

    /** Before: a CompositeDisposable holds the subscriptions; shutdown cancels and waits for nothing. */
    static final class PriceServiceBefore {
        final List<Integer> prices = new CopyOnWriteArrayList<>();
        final List<Throwable> errors = new CopyOnWriteArrayList<>();
        private final CompositeDisposable subscriptions = new CompositeDisposable();

        void watch(Flowable<Integer> ticks) {
            ticks.subscribe(prices::add, errors::add, () -> { }, subscriptions); // deletes itself when done
        }

        void refresh(Single<Integer> quote) {
            subscriptions.add(quote.subscribe(prices::add, errors::add));       // held until shutdown
        }

        void shutdown() {
            subscriptions.dispose();                                            // cancel everything, wait for nothing
        }
    }

    /** After: the same subscribe calls against a scope's container; shutdown drains, then stops. */
    static final class PriceServiceAfter {
        final List<Integer> prices = new CopyOnWriteArrayList<>();
        final List<Throwable> errors;
        private final CountingScope scope;                                       // passed in: the application's, or a test's
        private final ScopeContainer subscriptions;

        PriceServiceAfter(CountingScope scope, List<Throwable> errors) {
            this.errors = errors;
            this.scope = scope;
            this.subscriptions = RxScopes.asContainer(scope);
        }

        void watch(Flowable<Integer> ticks) {
            ticks.subscribe(prices::add, errors::add, () -> { }, subscriptions); // unchanged
        }

        boolean refresh(Single<Integer> quote) {
            Disposable d = RxScopes.spawn(quote.doOnSuccess(prices::add), scope.getToken()); // released when it ends
            return d != RxScopes.REFUSED;       // REFUSED: the scope is closed and quote was never subscribed
        }

        /** Refuse new work, let running work finish for up to {@code grace}, then stop the rest. */
        ShutdownReport shutdown(Duration grace) {
            return Scopes.joinOrStop(scope, grace, Duration.ofSeconds(5));     // JOINED, STOPPED or ABANDONED
        }
    }

    @Test
    void readme_compositeDisposableBefore() {
        PriceServiceBefore service = new PriceServiceBefore();
        PublishProcessor<Integer> ticks = PublishProcessor.create();
        SingleSubject<Integer> quote = SingleSubject.create();
        service.watch(ticks);
        service.refresh(quote);
        ticks.onNext(1);
        service.shutdown();
        assertFalse(ticks.hasSubscribers());
        assertFalse(quote.hasObservers());
        assertEquals(List.of(1), service.prices);
    }

    @Test
    void readme_scopeAfter_drainsRunningWork() throws Exception {
        List<Throwable> errors = new CopyOnWriteArrayList<>();
        PriceServiceAfter service = new PriceServiceAfter(new CountingScope(errors::add), errors);
        PublishProcessor<Integer> ticks = PublishProcessor.create();
        SingleSubject<Integer> quote = SingleSubject.create();
        service.watch(ticks);
        assertTrue(service.refresh(quote));
        assertEquals(2, service.scope.count());
        ticks.onNext(1);
        ticks.onComplete();            // the lambda subscriber deletes itself from the container
        quote.onSuccess(2);            // the spawned Single releases its count
        assertEquals(ShutdownReport.Outcome.JOINED, service.shutdown(Duration.ofSeconds(10)).outcome());
        assertFalse(service.refresh(Single.just(3)), "a closed scope refuses: RxScopes.REFUSED");
        assertEquals(List.of(1, 2), service.prices);
        assertEquals(List.of(), service.errors);
    }

    @Test
    void readme_scopeAfter_stopsWhatDoesNotFinish() throws Exception {
        List<Throwable> errors = new CopyOnWriteArrayList<>();
        PriceServiceAfter service = new PriceServiceAfter(new CountingScope(errors::add), errors);
        PublishProcessor<Integer> ticks = PublishProcessor.create();
        service.watch(ticks);
        service.refresh(Single.never());
        // the never-ending work cannot drain: stop is requested after the grace, and it ends
        assertEquals(ShutdownReport.Outcome.STOPPED, service.shutdown(Duration.ofMillis(50)).outcome());
        assertFalse(ticks.hasSubscribers());                  // requestStop disposed the container's subscriber
        assertEquals(0, service.scope.count());
        assertEquals(List.of(), service.errors);
    }

    @Test
    void readme_rxToSender() {
        Sender<String> greeting = RxSenders.fromSingle(Single.fromCallable(() -> "hello"));
        String s = Senders.syncWait(greeting);                                  // "hello"

        Integer none = Senders.syncWait(RxSenders.fromMaybe(Maybe.<Integer>empty()));          // null
        Optional<Integer> spelled = Senders.syncWait(RxSenders.fromMaybeOptional(Maybe.<Integer>empty())); // Optional.empty()
        Void done = Senders.syncWait(RxSenders.fromCompletable(Completable.complete()));      // null

        Integer first = Senders.syncWait(RxSenders.fromFlowable(Flowable.range(1, 10)));    // 1, then cancel
        List<Integer> all = Senders.syncWait(RxSenders.fromObservableList(Observable.range(1, 3)));

        assertEquals("hello", s);
        assertNull(none);
        assertEquals(Optional.empty(), spelled);
        assertNull(done);
        assertEquals(1, first);
        assertEquals(List.of(1, 2, 3), all);
    }

    @Test
    void readme_senderToRx() {
        Single<Integer> single = RxSenders.toSingle(Senders.just(42));
        single.test().assertValue(42);

        Maybe<Integer> maybe = RxSenders.toMaybe(Senders.<Integer>just(null));  // empty
        maybe.test().assertComplete().assertNoValues();

        Flowable<Integer> flowable = RxSenders.toFlowable(Senders.just(7));      // emits after request(n)
        flowable.test(0).assertEmpty().requestMore(1).assertValue(7).assertComplete();

        // dispose() = stop request on the sender's token; the Single.never() below is disposed
        Disposable d = RxSenders.toSingle(RxSenders.fromSingle(Single.never())).subscribe();
        d.dispose();
    }

    @Test
    void readme_schedulers() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            Scheduler senderSide = RxSchedulers.from(io.reactivex.rxjava3.schedulers.Schedulers.io());
            Senders.syncWait(Senders.schedule(senderSide));   // completes on an RxCachedThreadScheduler thread

            io.reactivex.rxjava3.core.Scheduler rxSide =
                    RxSchedulers.toRx(dev.senders.Schedulers.fromExecutor(pool));
            Flowable.range(1, 100)
                    .observeOn(rxSide)                          // serial, in order, on the pool
                    .test()
                    .awaitDone(10, TimeUnit.SECONDS)
                    .assertValueCount(100);
        } finally {
            pool.shutdownNow();
        }
    }
}
