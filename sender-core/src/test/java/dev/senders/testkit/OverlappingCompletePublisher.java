package dev.senders.testkit;

import dev.senders.OperationState;
import dev.senders.ProtocolViolationException;
import dev.senders.Sender;
import java.util.NoSuchElementException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * A hostile {@link Flow.Publisher} that breaks Reactive Streams §1.3 (signals must be serial) the
 * way a sloppy hand-written publisher does: once the subscriber has requested, one thread emits
 * elements (never more than requested, nor than its limit) while a second thread calls {@code onComplete()} as soon as
 * the first element is on its way, so the {@code onComplete} very likely runs while an
 * {@code onNext} is still running on the first thread. The adapters' tests wrap it with
 * {@code org.reactivestreams.FlowAdapters} (Reactor, RxJava {@code Flowable}) or an
 * {@code Observer} bridge, so that every publisher-to-sender path meets the same publisher.
 *
 * <p>{@link #checkEveryRound} is the rule those tests check: whatever the mode, the receiver is
 * completed exactly once, with a value or with a {@link ProtocolViolationException} (the library
 * noticed the overlap), and never left hanging. (A {@link NoSuchElementException} is accepted too:
 * it is a single-element mode's answer when the {@code onComplete} overtook the element, which then
 * arrives after the terminal signal and is reported as such.)
 *
 * <p>Test support, not published API (see package-info).
 */
public final class OverlappingCompletePublisher implements Flow.Publisher<Integer> {

    /** Rounds each test runs: the hang this catches showed up in 10-34 of 200 rounds. */
    public static final int ROUNDS = 200;

    private static final ExecutorService THREADS = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "overlapping-complete-publisher");
        t.setDaemon(true);
        return t;
    });

    private final int limit;
    private final AtomicLong requested = new AtomicLong();
    private volatile boolean completed;
    private volatile Flow.Subscriber<? super Integer> subscriber;
    private volatile boolean started;

    /** A publisher that emits at most {@code limit} elements (1 for the single-element modes). */
    public OverlappingCompletePublisher(int limit) {
        this.limit = limit;
    }

    @Override
    public void subscribe(Flow.Subscriber<? super Integer> s) {
        subscriber = s;
        s.onSubscribe(new Flow.Subscription() {
            @Override
            public void request(long n) {
                requested.accumulateAndGet(n, (a, b) -> a + b < 0 ? Long.MAX_VALUE : a + b);
                if (!started) {
                    started = true;
                    THREADS.execute(OverlappingCompletePublisher.this::emit);
                }
            }

            @Override
            public void cancel() {
                completed = true; // stop emitting (§3.12: eventually)
            }
        });
    }

    /** The emitting thread: starts the completing thread, then emits within demand until it completed. */
    private void emit() {
        Flow.Subscriber<? super Integer> s = subscriber;
        THREADS.execute(() -> {
            waitForFirstElement();
            try {
                s.onComplete(); // §1.3 broken: very likely while an onNext is still running
            } finally {
                completed = true;
                threadsDone.countDown();
            }
        });
        try {
            for (int i = 0; !completed && i < limit; ) {
                if (i >= requested.get()) {
                    Thread.onSpinWait(); // §1.1 kept: never more than requested
                    continue;
                }
                firstOnItsWay = true;
                s.onNext(i++);
            }
        } finally {
            threadsDone.countDown();
        }
    }

    /** Counted down by the emitting and the completing thread when they are done. */
    private final CountDownLatch threadsDone = new CountDownLatch(2);

    private volatile boolean firstOnItsWay;

    private void waitForFirstElement() {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (!firstOnItsWay && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
    }

    /**
     * Runs {@link #ROUNDS} rounds: each connects {@code senderOver} applied to a fresh publisher,
     * starts it and checks that the receiver completes exactly once, with a value or a
     * {@link ProtocolViolationException}. Throws an {@link AssertionError} naming the rounds that
     * broke the rule (a hang is detected by a per-round guard of two seconds).
     *
     * @param limit how many elements the publisher emits at most (1 for modes that want one element)
     * @param senderOver builds the library's sender (of any mode) over the hostile publisher
     */
    public static void checkEveryRound(int limit, Function<Flow.Publisher<Integer>, Sender<?>> senderOver) {
        StringBuilder failures = new StringBuilder();
        int failed = 0;
        for (int round = 0; round < ROUNDS && failed < 3; round++) {
            OverlappingCompletePublisher p = new OverlappingCompletePublisher(limit);
            TestReceiver<Object> r = new TestReceiver<>();
            @SuppressWarnings("unchecked")
            Sender<Object> sender = (Sender<Object>) senderOver.apply(p);
            OperationState op = sender.connect(r);
            op.start();
            String problem = check(p, r);
            if (problem != null) {
                failed++;
                failures.append("\n  round ").append(round).append(": ").append(problem);
            }
        }
        if (failed > 0) {
            throw new AssertionError("a publisher calling onComplete during onNext (§1.3 broken) must still "
                    + "complete the receiver exactly once or report a ProtocolViolationException:" + failures);
        }
    }

    private static String check(OverlappingCompletePublisher p, TestReceiver<Object> r) {
        try {
            if (!r.await(2, TimeUnit.SECONDS)) {
                return "the receiver was never completed";
            }
            // let the publisher's threads finish before counting completions
            if (!p.threadsDone.await(2, TimeUnit.SECONDS)) {
                return "the publisher's threads did not finish";
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
        if (r.completions() != 1) {
            return "completed " + r.completions() + " times: " + r.signals();
        }
        TestReceiver.Kind kind = r.kind();
        Throwable e = r.error();
        if (kind == TestReceiver.Kind.ERROR && !(e instanceof ProtocolViolationException)
                && !(e instanceof NoSuchElementException)) {
            return "failed with " + e + " instead of a value or a ProtocolViolationException";
        }
        if (kind == TestReceiver.Kind.STOPPED) {
            return "completed stopped though nobody asked it to stop";
        }
        return null;
    }
}
