package dev.senders.flow;

import dev.senders.Env;
import dev.senders.InplaceStopSource;
import dev.senders.OperationState;
import dev.senders.Query;
import dev.senders.Receiver;
import dev.senders.Sender;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;

/** Small recording doubles for the Flow interop tests. */
final class FlowTestSupport {

    private FlowTestSupport() {}

    /** A Flow subscriber that records every signal as a string and requests nothing by itself. */
    static class Sub<T> implements Flow.Subscriber<T> {
        final List<String> signals = new CopyOnWriteArrayList<>();
        final CountDownLatch terminated = new CountDownLatch(1);
        volatile Flow.Subscription subscription;
        volatile Throwable error;

        @Override
        public void onSubscribe(Flow.Subscription s) {
            subscription = s;
            signals.add("onSubscribe");
        }

        @Override
        public void onNext(T item) {
            signals.add("onNext(" + item + ")");
        }

        @Override
        public void onError(Throwable t) {
            error = t;
            signals.add("onError(" + t.getClass().getSimpleName() + ")");
            terminated.countDown();
        }

        @Override
        public void onComplete() {
            signals.add("onComplete");
            terminated.countDown();
        }

        void awaitTerminated() throws InterruptedException {
            if (!terminated.await(10, TimeUnit.SECONDS)) { // hang guard only
                throw new AssertionError("not terminated; signals so far " + signals);
            }
        }
    }

    /** A sender completed by the test: records its receiver, started or not. */
    static final class Manual<T> implements Sender<T> {
        final List<Receiver<? super T>> started = new CopyOnWriteArrayList<>();
        volatile int connects;

        @Override
        public OperationState connect(Receiver<? super T> r) {
            connects++;
            return () -> started.add(r);
        }

        Receiver<? super T> last() {
            return started.get(started.size() - 1);
        }
    }

    /** A Flow publisher that hands the test the subscriber and does nothing else by itself. */
    static final class ManualPublisher<T> implements Flow.Publisher<T> {
        final List<Flow.Subscriber<? super T>> subscribers = new CopyOnWriteArrayList<>();
        final List<Long> requests = new CopyOnWriteArrayList<>();
        volatile int cancels;

        @Override
        public void subscribe(Flow.Subscriber<? super T> s) {
            subscribers.add(s);
            s.onSubscribe(new Flow.Subscription() {
                @Override
                public void request(long n) {
                    requests.add(n);
                }

                @Override
                public void cancel() {
                    cancels++;
                }
            });
        }

        Flow.Subscriber<? super T> last() {
            return subscribers.get(subscribers.size() - 1);
        }
    }
}
