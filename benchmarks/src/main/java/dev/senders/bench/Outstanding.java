package dev.senders.bench;

import dev.senders.Receiver;
import dev.senders.Sender;
import dev.senders.Senders;
import dev.senders.scope.AsyncScopeToken;
import dev.senders.scope.CountingScope;
import dev.senders.scope.ScopeState;
import dev.senders.scope.Scopes;
import dev.senders.scope.SimpleCountingScope;
import io.reactivex.rxjava3.disposables.CompositeDisposable;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One tracker of outstanding {@link Parking} work per library: {@link #add} starts one tracked
 * operation in the slot {@link Parking#next}, {@link #finish} releases everything still parked and
 * checks that the tracker is empty. Shared by {@link OutstandingBench} and {@link Footprint}.
 *
 * <p>Variants: "floor" (the user's {@link Parking#SENDER} counted by an {@code AtomicLong}, no
 * tracking object), "scope" (the same spawned into a {@code SimpleCountingScope}), "reactor"
 * ({@link HeldSubscriber} in {@code Disposables.composite()}), "rxjava" ({@code CompositeDisposable}),
 * and the stop-aware pair: "countingScope" ({@link Parking#STOPPABLE_SENDER} spawned into a
 * {@code CountingScope}: each parked operation is registered on the scope's stop token through its
 * spawn receiver's env) with its floor "floorStoppable" (the same operation, untracked, under a
 * token that cannot stop, so registered nowhere).
 */
abstract class Outstanding {

    static Outstanding create(String variant) {
        switch (variant) {
            case "floor": return new Floor(Parking.SENDER);
            case "floorStoppable": return new Floor(Parking.STOPPABLE_SENDER);
            case "scope": return new ScopeTracker(false);
            case "countingScope": return new ScopeTracker(true);
            case "reactor": return new ReactorTracker();
            case "rxjava": return new RxTracker();
            default: throw new IllegalArgumentException(variant);
        }
    }

    abstract void add();

    abstract boolean empty();

    void finish() {
        long before = Parking.released;
        Parking.releaseAll();
        Work.check(empty(), getClass().getSimpleName() + " empty after releasing " + (Parking.released - before));
    }

    /** No tracking object: the user's work plus one AtomicLong increment/decrement. */
    static final class Floor extends Outstanding {
        final Sender<Void> sender;
        final AtomicLong count = new AtomicLong();

        Floor(Sender<Void> sender) {
            this.sender = sender;
        }

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
            sender.connect(receiver).start();
        }

        @Override
        boolean empty() {
            return count.get() == 0;
        }
    }

    /**
     * Work spawned into a scope: "scope" is {@link Parking#SENDER} in a {@code SimpleCountingScope};
     * "countingScope" is {@link Parking#STOPPABLE_SENDER} in a {@code CountingScope}, each parked
     * operation registered on the scope's stop token until it is released. Exactly one of the two
     * scope fields is set.
     */
    static final class ScopeTracker extends Outstanding {
        final SimpleCountingScope simple;
        final CountingScope counting;
        final AsyncScopeToken token;
        final Sender<Void> sender;

        ScopeTracker(boolean stopAware) {
            simple = stopAware ? null : new SimpleCountingScope();
            counting = stopAware ? new CountingScope() : null;
            token = stopAware ? counting.getToken() : simple.getToken();
            sender = stopAware ? Parking.STOPPABLE_SENDER : Parking.SENDER;
        }

        @Override
        void add() {
            if (!Scopes.spawn(sender, token)) {
                throw new IllegalStateException("spawn refused");
            }
        }

        @Override
        boolean empty() {
            return (simple != null ? simple.count() : counting.count()) == 0;
        }

        @Override
        void finish() {
            super.finish();
            Senders.syncWait(simple != null ? simple.join() : counting.join());
            ScopeState state = simple != null ? simple.state() : counting.state();
            long errors = simple != null ? simple.errorCount() : counting.errorCount();
            Work.check(state == ScopeState.JOINED && errors == 0, "scope joined");
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
