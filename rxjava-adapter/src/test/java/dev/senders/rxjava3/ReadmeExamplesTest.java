package dev.senders.rxjava3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.senders.Scheduler;
import dev.senders.Sender;
import dev.senders.Senders;
import io.reactivex.rxjava3.core.Completable;
import io.reactivex.rxjava3.core.Flowable;
import io.reactivex.rxjava3.core.Maybe;
import io.reactivex.rxjava3.core.Observable;
import io.reactivex.rxjava3.core.Single;
import io.reactivex.rxjava3.disposables.Disposable;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The code of rxjava-adapter/README.md, kept compiling and passing. */
class ReadmeExamplesTest {

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
