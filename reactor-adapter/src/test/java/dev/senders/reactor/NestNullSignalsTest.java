package dev.senders.reactor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.scope.CountingScope;
import dev.senders.scope.ScopeState;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;

/**
 * {@link ReactorScopes#nest} handles a null signal (Reactive Streams §2.13) the way every
 * subscriber of the library does: the caller gets a {@link NullPointerException} thrown, the
 * downstream gets it as {@code onError}, and the association is released (the scope joins).
 */
class NestNullSignalsTest {

    private static final Duration HANG_GUARD = Duration.ofSeconds(10);

    /** Hands its subscriber out; records cancel. */
    static final class Raw implements Publisher<Integer> {
        final AtomicReference<Subscriber<? super Integer>> subscriber = new AtomicReference<>();
        final AtomicBoolean cancelled = new AtomicBoolean();
        final boolean subscribes;

        Raw(boolean subscribes) {
            this.subscribes = subscribes;
        }

        @Override
        public void subscribe(Subscriber<? super Integer> s) {
            subscriber.set(s);
            if (subscribes) {
                s.onSubscribe(new Subscription() {
                    @Override
                    public void request(long n) {}

                    @Override
                    public void cancel() {
                        cancelled.set(true);
                    }
                });
            }
        }
    }

    private static List<Object> subscribeNested(Raw p, CountingScope scope) {
        List<Object> signals = new CopyOnWriteArrayList<>();
        ReactorScopes.nest(p, scope.getToken()).subscribe(signals::add, signals::add, () -> signals.add("complete"));
        return signals;
    }

    private static void assertJoins(CountingScope scope) {
        scope.close();
        ReactorSenders.toMono(scope.join()).block(HANG_GUARD);
        assertEquals(ScopeState.JOINED, scope.state());
    }

    @Test
    @DisplayName("§2.13 onNext(null): NPE thrown, the upstream cancelled, onError(NPE) downstream, the scope joins")
    void nullElement() {
        CountingScope scope = new CountingScope();
        Raw p = new Raw(true);
        List<Object> signals = subscribeNested(p, scope);
        assertThrows(NullPointerException.class, () -> p.subscriber.get().onNext(null));
        assertTrue(p.cancelled.get());
        assertEquals(1, signals.size(), signals::toString);
        assertInstanceOf(NullPointerException.class, signals.get(0));
        assertJoins(scope);
    }

    @Test
    @DisplayName("§2.13 onError(null): NPE thrown, onError(NPE) downstream, the scope joins")
    void nullError() {
        CountingScope scope = new CountingScope();
        Raw p = new Raw(true);
        List<Object> signals = subscribeNested(p, scope);
        assertThrows(NullPointerException.class, () -> p.subscriber.get().onError(null));
        assertEquals(1, signals.size(), signals::toString);
        assertInstanceOf(NullPointerException.class, signals.get(0));
        assertJoins(scope);
    }

    @Test
    @DisplayName("§2.13 onSubscribe(null): NPE thrown, onError(NPE) downstream, the scope joins")
    void nullSubscription() {
        CountingScope scope = new CountingScope();
        Raw p = new Raw(false);
        List<Object> signals = subscribeNested(p, scope);
        assertThrows(NullPointerException.class, () -> p.subscriber.get().onSubscribe(null));
        assertEquals(1, signals.size(), signals::toString);
        assertInstanceOf(NullPointerException.class, signals.get(0));
        assertJoins(scope);
    }
}
