package dev.senders.bench;

import dev.senders.Receiver;
import dev.senders.Senders;
import dev.senders.scope.AsyncScopeToken;
import dev.senders.scope.ScopeState;
import dev.senders.scope.Scopes;
import dev.senders.scope.SimpleCountingScope;
import io.reactivex.rxjava3.disposables.CompositeDisposable;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One tracker of outstanding {@link Parking} work per library: {@link #add} starts one tracked
 * operation in the slot {@link Parking#next}, {@link #finish} releases everything still parked and
 * checks that the tracker is empty. Shared by {@link OutstandingBench} and {@link Footprint}.
 */
abstract class Outstanding {

    static Outstanding create(String variant) {
        switch (variant) {
            case "floor": return new Floor();
            case "scope": return new ScopeTracker();
            case "reactor": return new ReactorTracker();
            case "rxjava": return new RxTracker();
            default: throw new IllegalArgumentException(variant);
        }
    }

    abstract void add();

    abstract boolean empty();

    void finish() {
        long before = Parking.released;
        for (int i = 0; i < Parking.slots.length; i++) {
            if (Parking.slots[i] != null) {
                Parking.release(i);
            }
        }
        Work.check(empty(), getClass().getSimpleName() + " empty after releasing " + (Parking.released - before));
    }

    /** No tracking object: the user's work plus one AtomicLong increment/decrement. */
    static final class Floor extends Outstanding {
        final AtomicLong count = new AtomicLong();
        final Receiver<Void> receiver = new Receiver<>() {
            @Override
            public void setValue(Void value) {
                count.decrementAndGet();
            }

            @Override
            public void setError(Throwable error) {
                throw new IllegalStateException(error);
            }

            @Override
            public void setStopped() {
                count.decrementAndGet();
            }
        };

        @Override
        void add() {
            count.incrementAndGet();
            Parking.SENDER.connect(receiver).start();
        }

        @Override
        boolean empty() {
            return count.get() == 0;
        }
    }

    static final class ScopeTracker extends Outstanding {
        final SimpleCountingScope scope = new SimpleCountingScope();
        final AsyncScopeToken token = scope.getToken();

        @Override
        void add() {
            if (!Scopes.spawn(Parking.SENDER, token)) {
                throw new IllegalStateException("spawn refused");
            }
        }

        @Override
        boolean empty() {
            return scope.count() == 0;
        }

        @Override
        void finish() {
            super.finish();
            Senders.syncWait(scope.join());
            Work.check(scope.state() == ScopeState.JOINED, "scope joined");
        }
    }

    static final class ReactorTracker extends Outstanding {
        final HeldSubscriber.Tracker tracker = new HeldSubscriber.Tracker(null);

        @Override
        void add() {
            Parking.MONO.subscribe(new HeldSubscriber(tracker));
        }

        @Override
        boolean empty() {
            return tracker.composite.size() == 0 && tracker.error == null;
        }
    }

    static final class RxTracker extends Outstanding {
        final CompositeDisposable cd = new CompositeDisposable();

        @Override
        void add() {
            Parking.COMPLETABLE.subscribe(InlineBench.NOTHING, InlineBench.ON_ERROR, cd);
        }

        @Override
        boolean empty() {
            return cd.size() == 0;
        }
    }
}
