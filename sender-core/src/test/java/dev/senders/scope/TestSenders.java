package dev.senders.scope;

import dev.senders.Env;
import dev.senders.Query;
import dev.senders.Receiver;
import dev.senders.Sender;
import dev.senders.StopToken;
import java.util.function.Supplier;

/**
 * The few test-only senders the scope tests need that core has no algorithm for. then / letValue /
 * letError / startsOn / whenAll are NOT here: the tests use the real core algorithms
 * ({@code Sender} default methods, {@code Senders.whenAll}). These stay because each is a leaf or a
 * probe that keeps a scope test independent of any core algorithm under test: {@code fromCallable}
 * (a leaf running a body when started), {@code beforeCompletion} (a probe seeing the moment before
 * the completion is forwarded, which the scope's release ordering tests need), {@code untilStopped}
 * (a leaf that only ends by stop) and {@code stopEnv}.
 */
final class TestSenders {

    private TestSenders() {}

    /** A sender that runs {@code body} when started and completes with its result. */
    static <T> Sender<T> fromCallable(Supplier<T> body) {
        return r -> () -> {
            T v;
            try {
                v = body.get();
            } catch (Throwable t) {
                r.setError(t);
                return;
            }
            r.setValue(v);
        };
    }

    /** Runs {@code action} before forwarding whatever completion {@code s} delivers. */
    static <T> Sender<T> beforeCompletion(Sender<T> s, Runnable action) {
        return r -> s.connect(new Receiver<T>() {
            @Override
            public void setValue(T v) {
                action.run();
                r.setValue(v);
            }

            @Override
            public void setError(Throwable e) {
                action.run();
                r.setError(e);
            }

            @Override
            public void setStopped() {
                action.run();
                r.setStopped();
            }

            @Override
            public Env env() {
                return r.env();
            }
        });
    }

    /** A sender that completes stopped as soon as its stop token fires, and never otherwise. */
    static <T> Sender<T> untilStopped() {
        return r -> () -> {
            StopToken t = r.env().stopToken();
            t.onStop(r::setStopped);
        };
    }

    /** Env with the given stop token. */
    static Env stopEnv(StopToken t) {
        return Env.of(Query.STOP_TOKEN, t);
    }
}
