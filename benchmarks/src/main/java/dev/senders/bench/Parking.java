package dev.senders.bench;

import dev.senders.OperationState;
import dev.senders.Receiver;
import dev.senders.Sender;
import dev.senders.StopCallback;
import dev.senders.StopToken;
import io.reactivex.rxjava3.core.Completable;
import io.reactivex.rxjava3.core.CompletableObserver;
import io.reactivex.rxjava3.disposables.Disposable;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;
import reactor.core.publisher.Mono;

/**
 * The user's own never-completing-until-released work, one flavour per library, each 16 bytes per
 * outstanding operation (one object holding the downstream) plus a slot in the user's registry
 * {@link #slots}. Single-threaded: {@link #next} says which slot the next started operation takes.
 * This is what every tracker is compared against ("beyond the user's own sender").
 */
final class Parking {

    interface Parked {
        void release();
    }

    static Parked[] slots = new Parked[0];
    static int next;
    static long released;

    private Parking() {
    }

    static void init(int size) {
        slots = new Parked[size];
        next = 0;
        released = 0;
    }

    static void park(Parked p) {
        if (slots[next] != null) {
            throw new IllegalStateException("slot " + next + " taken");
        }
        slots[next] = p;
    }

    static void release(int slot) {
        Parked p = slots[slot];
        slots[slot] = null;
        released++;
        p.release();
    }

    /** Releases every operation still parked, in slot order. */
    static void releaseAll() {
        for (int i = 0; i < slots.length; i++) {
            if (slots[i] != null) {
                release(i);
            }
        }
    }

    /** Sender side: {@code start} parks, {@code release} completes with {@code setValue(null)}. */
    static final Sender<Void> SENDER = SenderOp::new;

    private static final class SenderOp implements OperationState, Parked {
        private final Receiver<? super Void> receiver;

        SenderOp(Receiver<? super Void> receiver) {
            this.receiver = receiver;
        }

        @Override
        public void start() {
            park(this);
        }

        @Override
        public void release() {
            receiver.setValue(null);
        }
    }

    /**
     * Sender side, stop-aware (the smallest operation a user can write that a scope's stop reaches):
     * as {@link #SENDER}, and {@code start} registers the operation on its receiver's stop token (a
     * stop completes it with {@code setStopped()}); {@code release} closes that registration, then
     * completes with {@code setValue(null)}. 24 bytes: the receiver and the registration. Under a
     * token that can never stop, nothing is registered.
     */
    static final Sender<Void> STOPPABLE_SENDER = StoppableOp::new;

    private static final class StoppableOp implements OperationState, Parked, Runnable {
        private final Receiver<? super Void> receiver;
        private StopCallback registration;

        StoppableOp(Receiver<? super Void> receiver) {
            this.receiver = receiver;
        }

        @Override
        public void start() {
            StopToken token = receiver.env().stopToken();
            if (token.stopPossible()) {
                registration = token.onStop(this);
            }
            park(this);
        }

        @Override
        public void release() {
            StopCallback r = registration;
            if (r != null) {
                r.close();
            }
            receiver.setValue(null);
        }

        /** The stop callback. */
        @Override
        public void run() {
            receiver.setStopped();
        }
    }

    /** Reactor side: {@code subscribe} parks, {@code release} completes the subscriber. */
    static final Mono<Void> MONO = new Mono<>() {
        @Override
        public void subscribe(CoreSubscriber<? super Void> actual) {
            MonoSubscription s = new MonoSubscription(actual);
            park(s);
            actual.onSubscribe(s);
        }
    };

    private static final class MonoSubscription implements Subscription, Parked {
        private final CoreSubscriber<? super Void> actual;

        MonoSubscription(CoreSubscriber<? super Void> actual) {
            this.actual = actual;
        }

        @Override
        public void request(long n) {
        }

        @Override
        public void cancel() {
        }

        @Override
        public void release() {
            actual.onComplete();
        }
    }

    /** RxJava side: {@code subscribe} parks, {@code release} completes the observer. */
    static final Completable COMPLETABLE = new Completable() {
        @Override
        protected void subscribeActual(CompletableObserver observer) {
            CompletableDisposable d = new CompletableDisposable(observer);
            park(d);
            observer.onSubscribe(d);
        }
    };

    private static final class CompletableDisposable implements Disposable, Parked {
        private final CompletableObserver observer;

        CompletableDisposable(CompletableObserver observer) {
            this.observer = observer;
        }

        @Override
        public void dispose() {
        }

        @Override
        public boolean isDisposed() {
            return false;
        }

        @Override
        public void release() {
            observer.onComplete();
        }
    }
}
