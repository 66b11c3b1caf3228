package dev.senders.tck;

import dev.senders.Env;
import dev.senders.InplaceStopSource;
import dev.senders.OperationState;
import dev.senders.Query;
import dev.senders.Receiver;
import dev.senders.Scheduler;
import dev.senders.Schedulers;
import dev.senders.Sender;
import dev.senders.Senders;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

/**
 * What the verifications share: the senders the publisher verifications adapt, and the way the
 * subscriber verifications get hold of the library's own {@code Subscriber}.
 *
 * <p><b>Getting the subscriber.</b> The library never hands out its subscribers: they live inside
 * the operation of a {@code fromPublisher}-style sender. So a verification builds that sender over
 * a <em>capturing publisher</em> (a lambda whose {@code subscribe} only stores its argument),
 * connects it to a {@link Recorder} and starts it: the publisher is then holding exactly the
 * subscriber the library would subscribe to any foreign publisher, and the TCK drives it from
 * there. The recorder's env carries a stop token of its own, so the whitebox puppet's
 * {@code signalCancel()} can be the library's real cancel path: a stop request.
 */
final class Harness {

    private Harness() {}

    /** Daemon threads for the asynchronous sender variants. */
    static final ExecutorService POOL = Executors.newFixedThreadPool(2, r -> {
        Thread t = new Thread(r, "tck-sender-pool");
        t.setDaemon(true);
        return t;
    });

    static final Scheduler ASYNC = Schedulers.fromExecutor(POOL);

    /** 0 elements: {@code just(null)} (an empty completion); 1 element: {@code just(1)}. */
    static Sender<Integer> syncSender(long elements) {
        return Senders.just(value(elements));
    }

    /** As {@link #syncSender}, but completing on another thread (a pool thread). */
    static Sender<Integer> asyncSender(long elements) {
        Integer v = value(elements);
        return Senders.schedule(ASYNC).then(ignored -> v);
    }

    private static Integer value(long elements) {
        if (elements < 0 || elements > 1) {
            // maxElementsFromPublisher() is 1: the TCK skips every test that needs more.
            throw new IllegalArgumentException("a sender publishes 0 or 1 element, asked for " + elements);
        }
        return elements == 0 ? null : 1;
    }

    static Sender<Integer> failedSender() {
        return Senders.justError(new RuntimeException("TCK createFailedPublisher: the sender failed"));
    }

    /** Stopped, on another thread: the publisher must signal {@code onError(CancellationException)}. */
    static Sender<Integer> asyncStoppedSender() {
        return Senders.schedule(ASYNC).letValue(ignored -> Senders.<Integer>justStopped());
    }

    /**
     * Starts the sender that {@code senderOver} builds over a capturing publisher and returns the
     * subscriber the operation subscribed with, together with the receiver that records the
     * operation's completion.
     *
     * @param senderOver given the capturing "subscribe" function, builds the library's sender
     */
    static <S> Captured<S> capture(Function<java.util.function.Consumer<S>, Sender<?>> senderOver) {
        AtomicReference<S> ref = new AtomicReference<>();
        Recorder recorder = new Recorder();
        Sender<?> sender = senderOver.apply(ref::set);
        OperationState op = sender.connect(recorder);
        op.start();
        S s = ref.get();
        if (s == null) {
            throw new IllegalStateException("the sender did not subscribe when started: " + sender);
        }
        return new Captured<>(s, recorder);
    }

    record Captured<S>(S subscriber, Recorder recorder) {}

    /** A receiver with its own stop source that records how the operation completed. */
    static final class Recorder implements Receiver<Object> {
        final InplaceStopSource stopSource = new InplaceStopSource();
        private final Env env = Env.of(Query.STOP_TOKEN, stopSource.token());
        volatile String outcome;

        @Override
        public Env env() {
            return env;
        }

        @Override
        public void setValue(Object value) {
            outcome = "value " + value;
        }

        @Override
        public void setError(Throwable error) {
            outcome = "error " + error;
        }

        @Override
        public void setStopped() {
            outcome = "stopped";
        }

        /** The library's cancel path: a stop request on the operation's token. */
        void requestStop() {
            stopSource.requestStop();
        }
    }
}
