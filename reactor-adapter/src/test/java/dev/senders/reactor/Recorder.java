package dev.senders.reactor;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;
import reactor.util.context.Context;

/** A subscriber that requests nothing by itself and records every signal as text. */
final class Recorder<T> implements CoreSubscriber<T> {

    final List<String> signals = new CopyOnWriteArrayList<>();
    final List<Object> discarded = new CopyOnWriteArrayList<>();
    volatile Subscription subscription;
    volatile Throwable error;
    private final Context context = Operators2.discardInto(discarded);

    @Override
    public Context currentContext() {
        return context;
    }

    @Override
    public void onSubscribe(Subscription s) {
        signals.add("onSubscribe");
        subscription = s;
    }

    @Override
    public void onNext(T t) {
        signals.add("onNext(" + t + ")");
    }

    @Override
    public void onError(Throwable t) {
        error = t;
        signals.add("onError(" + t.getClass().getSimpleName() + ")");
    }

    @Override
    public void onComplete() {
        signals.add("onComplete");
    }
}
