package dev.senders.rxjava3;

import dev.senders.testkit.DoubleStart;
import dev.senders.testkit.DoubleStart.Case;
import io.reactivex.rxjava3.core.Completable;
import io.reactivex.rxjava3.core.Flowable;
import io.reactivex.rxjava3.core.Maybe;
import io.reactivex.rxjava3.core.Observable;
import io.reactivex.rxjava3.core.Single;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The double-start rule ({@link DoubleStart}, decision H2) on every operation rxjava-adapter makes:
 * the consumer of each kind of source (and of the buffering modes), and the scheduler's
 * {@code schedule()}.
 */
class DoubleStartTest {

    @ParameterizedTest(name = "{0}")
    @MethodSource("operations")
    void aSecondStartThrowsAViolationAndTheReceiverCompletesOnce(String name, Case c) {
        DoubleStart.check(name, c);
    }

    static List<Arguments> operations() {
        return List.of(
                Arguments.of("RxSenders.fromSingle", new Case(RxSenders.fromSingle(Single.just(1)))),
                Arguments.of("RxSenders.fromMaybe", new Case(RxSenders.fromMaybe(Maybe.just(1)))),
                Arguments.of("RxSenders.fromCompletable", new Case(RxSenders.fromCompletable(Completable.complete()))),
                Arguments.of("RxSenders.fromFlowable", new Case(RxSenders.fromFlowable(Flowable.just(1, 2)))),
                Arguments.of("RxSenders.fromFlowableList", new Case(RxSenders.fromFlowableList(Flowable.just(1, 2)))),
                Arguments.of("RxSenders.fromPublisher", new Case(RxSenders.fromPublisher(Flowable.just(1)))),
                Arguments.of("RxSenders.fromObservable", new Case(RxSenders.fromObservable(Observable.just(1, 2)))),
                Arguments.of("RxSenders.fromObservableList", new Case(RxSenders.fromObservableList(Observable.just(1, 2)))),
                Arguments.of("RxSchedulers.from(...).schedule()", new Case(
                        RxSchedulers.from(io.reactivex.rxjava3.schedulers.Schedulers.trampoline()).schedule())));
    }
}
