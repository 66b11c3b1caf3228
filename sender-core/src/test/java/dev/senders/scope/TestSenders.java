package dev.senders.scope;

import dev.senders.Env;
import dev.senders.OperationState;
import dev.senders.Query;
import dev.senders.Receiver;
import dev.senders.Scheduler;
import dev.senders.Sender;
import dev.senders.StopToken;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.Supplier;

/** Tiny test-only algorithms (the real ones live in dev.senders on another branch). */
final class TestSenders {

    private TestSenders() {}

    /** then: maps the value; a throwing function becomes setError. */
    static <A, B> Sender<B> then(Sender<A> s, Function<? super A, ? extends B> f) {
        return r -> s.connect(new Receiver<A>() {
            @Override
            public void setValue(A a) {
                B b;
                try {
                    b = f.apply(a);
                } catch (Throwable t) {
                    r.setError(t);
                    return;
                }
                r.setValue(b);
            }

            @Override
            public void setError(Throwable e) {
                r.setError(e);
            }

            @Override
            public void setStopped() {
                r.setStopped();
            }

            @Override
            public Env env() {
                return r.env();
            }
        });
    }

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

    /** letValue: runs the sender the function returns for the value. */
    static <A, B> Sender<B> letValue(Sender<A> s, Function<? super A, ? extends Sender<B>> f) {
        return r -> s.connect(new Receiver<A>() {
            @Override
            public void setValue(A a) {
                Sender<B> next;
                try {
                    next = f.apply(a);
                } catch (Throwable t) {
                    r.setError(t);
                    return;
                }
                next.connect(r).start();
            }

            @Override
            public void setError(Throwable e) {
                r.setError(e);
            }

            @Override
            public void setStopped() {
                r.setStopped();
            }

            @Override
            public Env env() {
                return r.env();
            }
        });
    }

    /** letError: replaces an error by the sender the function returns. */
    static <A> Sender<A> letError(Sender<A> s, Function<Throwable, ? extends Sender<A>> f) {
        return r -> s.connect(new Receiver<A>() {
            @Override
            public void setValue(A a) {
                r.setValue(a);
            }

            @Override
            public void setError(Throwable e) {
                f.apply(e).connect(r).start();
            }

            @Override
            public void setStopped() {
                r.setStopped();
            }

            @Override
            public Env env() {
                return r.env();
            }
        });
    }

    /** P2300 {@code on(sch, s)}: starts {@code s} on a thread of {@code sch}. */
    static <T> Sender<T> startsOn(Scheduler sch, Sender<T> s) {
        return letValue(sch.schedule(), v -> s);
    }

    /** A minimal whenAll of two senders: values as a pair, first error/stop wins (no sibling stop). */
    static <A, B> Sender<Object[]> whenAll(Sender<A> a, Sender<B> b) {
        return r -> {
            Object[] values = new Object[2];
            AtomicInteger left = new AtomicInteger(2);
            AtomicReference<Object> failure = new AtomicReference<>();
            Runnable arrive = () -> {
                if (left.decrementAndGet() == 0) {
                    Object f = failure.get();
                    if (f == null) {
                        r.setValue(values);
                    } else if (f instanceof Throwable) {
                        r.setError((Throwable) f);
                    } else {
                        r.setStopped();
                    }
                }
            };
            OperationState oa = a.connect(slot(r, values, 0, failure, arrive));
            OperationState ob = b.connect(slot(r, values, 1, failure, arrive));
            return () -> {
                oa.start();
                ob.start();
            };
        };
    }

    private static <X> Receiver<X> slot(Receiver<?> r, Object[] values, int i, AtomicReference<Object> failure,
            Runnable arrive) {
        return new Receiver<X>() {
            @Override
            public void setValue(X x) {
                values[i] = x;
                arrive.run();
            }

            @Override
            public void setError(Throwable e) {
                failure.compareAndSet(null, e);
                arrive.run();
            }

            @Override
            public void setStopped() {
                failure.compareAndSet(null, "stopped");
                arrive.run();
            }

            @Override
            public Env env() {
                return r.env();
            }
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
