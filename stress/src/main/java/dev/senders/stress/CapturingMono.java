package dev.senders.stress;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;
import reactor.core.publisher.Mono;

/**
 * A never-completing {@code Mono} that is also its subscription: it hands its (one) subscriber to
 * the test, which signals it by hand, and counts the cancels it receives, atomically.
 */
class CapturingMono extends Mono<Object> implements Subscription {

    volatile CoreSubscriber<? super Object> subscriber;
    private volatile int cancels;

    @Override
    public void subscribe(CoreSubscriber<? super Object> s) {
        subscriber = s;
        s.onSubscribe(this);
    }

    @Override
    public void request(long n) {
    }

    @Override
    public void cancel() {
        CANCELS.getAndAdd(this, 1);
    }

    int cancels() {
        return cancels;
    }

    private static final VarHandle CANCELS;

    static {
        try {
            CANCELS = MethodHandles.lookup().findVarHandle(CapturingMono.class, "cancels", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
