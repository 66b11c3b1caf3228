package dev.senders.reliability;

import dev.senders.Env;
import dev.senders.OperationState;
import dev.senders.Receiver;
import dev.senders.Sender;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/** Small recording senders and receivers for the reliability tests. */
final class Probes {

    private Probes() {}

    /** Records every completion (a second one is visible in {@link #completions}). */
    static class Rec<T> implements Receiver<T> {
        final AtomicInteger completions = new AtomicInteger();
        final CountDownLatch done = new CountDownLatch(1);
        final Env env;
        volatile String kind;
        volatile Object value;
        volatile Throwable error;

        Rec() {
            this(Env.empty());
        }

        Rec(Env env) {
            this.env = env;
        }

        void record(String k) {
            kind = k;
            completions.incrementAndGet();
            done.countDown();
        }

        @Override
        public void setValue(T v) {
            value = v;
            record("value");
        }

        @Override
        public void setError(Throwable e) {
            error = e;
            record("error");
        }

        @Override
        public void setStopped() {
            record("stopped");
        }

        @Override
        public Env env() {
            return env;
        }

        boolean await() throws InterruptedException {
            return done.await(10, TimeUnit.SECONDS);
        }

        boolean isDone() {
            return done.getCount() == 0;
        }
    }

    /** A sender whose operations are completed by the test; every connect and start is counted. */
    static final class Manual<T> implements Sender<T> {
        final AtomicInteger connects = new AtomicInteger();
        final AtomicInteger starts = new AtomicInteger();
        final List<Receiver<? super T>> started = new CopyOnWriteArrayList<>();

        @Override
        public OperationState connect(Receiver<? super T> r) {
            connects.incrementAndGet();
            return () -> {
                starts.incrementAndGet();
                started.add(r);
            };
        }

        Receiver<? super T> receiver() {
            return started.get(started.size() - 1);
        }

        void value(T v) {
            receiver().setValue(v);
        }

        void stopped() {
            receiver().setStopped();
        }
    }
}
