package dev.senders.stress.lincheck;

import dev.senders.OperationState;
import dev.senders.Receiver;
import dev.senders.Sender;
import dev.senders.StopCallback;
import dev.senders.reactor.ReactorSenders;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.jetbrains.kotlinx.lincheck.execution.ExecutionScenario;
import org.jetbrains.lincheck.datastructures.ManagedStrategyGuarantee;
import org.jetbrains.lincheck.datastructures.Operation;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;
import reactor.core.Scannable;
import reactor.core.publisher.Mono;
import reactor.util.context.Context;

/**
 * The Reactive Streams boundary, sender to publisher: {@code SenderSubscription}, the one
 * sender-to-subscriber state machine (here through {@link ReactorSenders#toMono}, whose discard and
 * dropped-error hooks make the value and the error accountable). The racing entry points are the
 * operations: the subscriber's {@code subscribe} (which hands over the subscription, then starts
 * the sender), {@code request(1)}, {@code request(0)} (§3.9) and {@code cancel()}, against the
 * sender's one completion: a value, an empty value ({@code null}), an error, or stopped.
 *
 * <p><b>Results</b> (linearizable against the {@link Spec}): each operation returns the signals
 * the subscriber got during that call ({@code next:42}, {@code complete}, {@code error:...}, or
 * {@link SignalLog#NONE}). The specification: exactly one terminal signal; the value is delivered
 * only on demand (by the completion if the request came first, else by the request), followed by
 * {@code onComplete}; an empty value, an error or stopped
 * ({@code onError(CancellationException)}) need no demand; {@code request(0)} fails the
 * subscription with {@code IllegalArgumentException}; after a cancel or a terminal signal nothing
 * more is signalled.
 *
 * <p><b>Invariants</b> (after every run): {@code onSubscribe} came once; {@code onNext} never
 * before a request; the value reached the subscriber or the discard hook, the sender's error the
 * subscriber or the {@code onErrorDropped} hook, each exactly once; nothing else was dropped; the
 * stop request reached the sender at most once, never after it completed with a signal the
 * subscriber got, and always if the subscriber cancelled (or requested 0) a started sender that
 * never completed. Then the race is over: the sender completes with its value if it had not
 * completed, the subscriber requests, and a subscriber that neither cancelled nor requested 0
 * must have its terminal signal.
 *
 * <p>What Lincheck cannot express as results: the subscription reaches the subscriber
 * ({@code onSubscribe}) before the sender is started, inside one {@code subscribe} call; a
 * request made in between, with the sender's completion right after it, would be seen as a
 * completion of a sender that had not started, which no atomic {@code subscribe} gives. So
 * {@code request} and the completions use the subscription only once {@code subscribe} returned,
 * and {@code cancel} uses it as soon as {@code onSubscribe} stored it (its race with the start is
 * checked by the invariants: a cancelled start either never starts the sender or stops it).
 */
public class SenderSubscriptionLincheckTest extends LincheckScenario {

    private static final int VALUE = 42;
    private static final IllegalStateException ERROR = new IllegalStateException("the sender failed");

    private final SignalLog log = new SignalLog();
    private final ReactorDrops drops = new ReactorDrops();
    private final Mono<Integer> mono;
    private final Subscriber subscriber = new Subscriber();
    private final AtomicInteger stopRuns = new AtomicInteger();
    private volatile Receiver<? super Integer> work;   // the started sender's receiver
    private volatile StopCallback stopCallback;        // its stop callback, closed before it completes
    private volatile boolean handed;                   // subscribe returned
    private final Object completeLock = new Object();
    private volatile String completedWith;             // the sender's completion, once made
    private volatile boolean cancelled;                // cancel() or request(0) was called

    public SenderSubscriptionLincheckTest() {
        Sender<Integer> sender = r -> (OperationState) () -> {
            stopCallback = r.env().stopToken().onStop(stopRuns::incrementAndGet);
            work = r;
        };
        mono = ReactorSenders.toMono(sender);
    }

    /** The subscriber: logs its signals; {@code currentContext()} carries the counting hooks. */
    final class Subscriber implements CoreSubscriber<Integer> {
        final AtomicInteger onSubscribes = new AtomicInteger();
        volatile Subscription subscription;
        volatile boolean requested;
        volatile boolean nextBeforeRequest;

        @Override
        public Context currentContext() {
            return drops.context();
        }

        @Override
        public void onSubscribe(Subscription s) {
            onSubscribes.incrementAndGet();
            subscription = s;
        }

        @Override
        public void onNext(Integer v) {
            if (!requested) {
                nextBeforeRequest = true;
            }
            log.add("next:" + v);
        }

        @Override
        public void onError(Throwable e) {
            log.addError(e);
        }

        @Override
        public void onComplete() {
            log.add("complete");
        }
    }

    @Operation(runOnce = true)
    public String subscribe() {
        int mark = log.mark();
        mono.subscribe(subscriber);
        handed = true;
        return log.since(mark);
    }

    @Operation
    public String request() {
        int mark = log.mark();
        if (handed) {
            subscriber.requested = true;
            subscriber.subscription.request(1);
        }
        return log.since(mark);
    }

    /** {@code request(0)}: a subscriber breaking §3.9. */
    @Operation
    public String requestZero() {
        int mark = log.mark();
        if (handed) {
            cancelled = true;
            subscriber.subscription.request(0);
        }
        return log.since(mark);
    }

    /** Cancels as soon as the subscriber has the subscription (possibly while {@code subscribe} still starts the sender). */
    @Operation
    public String cancel() {
        int mark = log.mark();
        Subscription s = subscriber.subscription;
        if (s != null) {
            cancelled = true;
            s.cancel();
        }
        return log.since(mark);
    }

    @Operation(runOnce = true)
    public String completeValue() {
        return complete("value");
    }

    @Operation(runOnce = true)
    public String completeEmpty() {
        return complete("empty");
    }

    @Operation(runOnce = true)
    public String completeError() {
        return complete("error");
    }

    @Operation(runOnce = true)
    public String completeStopped() {
        return complete("stopped");
    }

    /**
     * The sender's one completion, if it was started and has not completed: whichever completion
     * operation comes first; the lock makes a later one wait until it is done.
     */
    private String complete(String how) {
        int mark = log.mark();
        synchronized (completeLock) {
            Receiver<? super Integer> r = work;
            if (handed && r != null && completedWith == null) {
                completedWith = how;
                stopCallback.close(); // a sender deregisters before it completes
                switch (how) {
                    case "value" -> r.setValue(VALUE);
                    case "empty" -> r.setValue(null);
                    case "error" -> r.setError(ERROR);
                    default -> r.setStopped();
                }
            }
        }
        return log.since(mark);
    }

    /**
     * The races by hand: the value against the request and the cancel, the cancel against the
     * start, the error against the cancel, the request against an empty completion.
     */
    @Override
    protected List<ExecutionScenario> customScenarios() {
        return List.of(
                scenario().initial("subscribe").thread("completeValue").thread("request").thread("cancel").build(),
                scenario().initial("subscribe").thread("request", "completeValue").thread("cancel").build(),
                scenario().initial("subscribe", "completeValue").thread("request").thread("cancel").build(),
                scenario().initial("subscribe").thread("completeError").thread("cancel").thread("requestZero").build(),
                scenario().initial("subscribe").thread("completeStopped").thread("cancel").build(),
                scenario().initial("subscribe").thread("completeEmpty").thread("request").build(),
                scenario().thread("subscribe", "completeValue").thread("cancel", "request").build());
    }

    @Override
    protected void invariants() {
        check();
        // the race is over: the sender completes with its value, the subscriber requests
        complete("value");
        if (handed) {
            subscriber.requested = true;
            subscriber.subscription.request(1);
        }
        check();
        if (handed && !cancelled && terminals(log.all()) != 1) {
            throw new AssertionError("a subscriber that did not cancel never got its terminal signal: " + state());
        }
    }

    private void check() {
        List<String> signals = log.all();
        if (subscriber.onSubscribes.get() > 1 || (handed && subscriber.onSubscribes.get() != 1)) {
            throw new AssertionError("onSubscribe came " + subscriber.onSubscribes.get() + " times: " + state());
        }
        if (subscriber.nextBeforeRequest) {
            throw new AssertionError("onNext before any request (Reactive Streams §1.1): " + state());
        }
        if (terminals(signals) > 1) {
            throw new AssertionError("more than one terminal signal: " + state());
        }
        int nexts = (int) signals.stream().filter(s -> s.startsWith("next:")).count();
        int at = signals.indexOf("next:" + VALUE);
        if (nexts > 1 || (nexts == 1 && (at < 0 || at + 1 >= signals.size() || !signals.get(at + 1).equals("complete")))) {
            throw new AssertionError("the value must come once, then onComplete: " + state());
        }
        String how = completedWith;
        int values = nexts + drops.discards(VALUE) + pending();
        if ("value".equals(how) ? values != 1 : values != 0) {
            throw new AssertionError("the value reached the subscriber or the discard hook " + values
                    + " times, or is still waiting for demand: " + state());
        }
        int errors = drops.dropped(ERROR) + (signals.contains("error:IllegalStateException") ? 1 : 0);
        if ("error".equals(how) ? errors != 1 : errors != 0) {
            throw new AssertionError("the error reached the subscriber or the dropped hook " + errors + " times: " + state());
        }
        Throwable other = drops.droppedOtherThan(ERROR);
        if (other != null) {
            throw new AssertionError("dropped: " + other + ": " + state(), other);
        }
        int stops = stopRuns.get();
        boolean senderSignalled = signals.stream().anyMatch(s -> s.equals("complete") || s.startsWith("next:")
                || s.equals("error:IllegalStateException") || s.equals("error:CancellationException"));
        if (stops > 1 || (stops == 1 && (!cancelled || senderSignalled))) {
            throw new AssertionError("the stop request reached the sender " + stops + " times: " + state());
        }
        if (work != null && how == null && cancelled && stops != 1) {
            throw new AssertionError("the subscriber cancelled a running sender, which was never stopped: " + state());
        }
    }

    /** 1 if the sender's value waits for demand in the subscription (what it reports to Reactor's {@code Scannable}). */
    private int pending() {
        Subscription s = subscriber.subscription;
        return s == null ? 0 : Scannable.from(s).scanOrDefault(Scannable.Attr.BUFFERED, 0);
    }

    private static int terminals(List<String> signals) {
        return (int) signals.stream().filter(s -> s.equals("complete") || s.startsWith("error:")).count();
    }

    private String state() {
        return "subscriber " + log + ", handed " + handed + ", sender started " + (work != null) + ", completed with "
                + completedWith + ", value pending " + pending() + ", cancelled " + cancelled + ", stop runs " + stopRuns.get() + ", " + drops;
    }

    /**
     * Half the generated scenarios and a third of the interleavings of the default: each run goes
     * through the Reactor shell, so each interleaving is long; the hand-written scenarios carry
     * the races that matter.
     */
    @Override
    protected int iterations() {
        return 10;
    }

    @Override
    protected int invocations() {
        return 300;
    }

    @Override
    protected List<ManagedStrategyGuarantee> guarantees() {
        return ReactorDrops.PROBES_AND_HOOKS;
    }

    @Override
    protected Class<?> specification() {
        return Spec.class;
    }

    /** The contract of the subscription as a plain state machine. */
    public static final class Spec {
        private boolean handed;
        private boolean requested;
        private boolean completed;  // the sender completed
        private boolean hasValue;   // its value waits for demand
        private boolean terminal;   // cancelled, or the subscriber has (or is having) its terminal signal

        public Spec() {}

        public String subscribe() {
            handed = true;
            return SignalLog.NONE;
        }

        public String request() {
            if (!handed || terminal || requested) {
                return SignalLog.NONE;
            }
            requested = true;
            if (hasValue) {
                terminal = true;
                return "next:" + VALUE + ",complete";
            }
            return SignalLog.NONE;
        }

        public String requestZero() {
            if (!handed || terminal) {
                return SignalLog.NONE;
            }
            terminal = true;
            return "error:IllegalArgumentException";
        }

        public String cancel() {
            terminal |= handed;
            return SignalLog.NONE;
        }

        public String completeValue() {
            if (!begin()) {
                return SignalLog.NONE;
            }
            if (requested) {
                terminal = true;
                return "next:" + VALUE + ",complete";
            }
            hasValue = true;
            return SignalLog.NONE;
        }

        public String completeEmpty() {
            return begin() ? end("complete") : SignalLog.NONE;
        }

        public String completeError() {
            return begin() ? end("error:IllegalStateException") : SignalLog.NONE;
        }

        public String completeStopped() {
            return begin() ? end("error:CancellationException") : SignalLog.NONE;
        }

        /** The sender's completion, if it runs and has not completed; false if nothing reaches the subscriber. */
        private boolean begin() {
            if (!handed || completed) {
                return false;
            }
            completed = true;
            return !terminal;
        }

        private String end(String signal) {
            terminal = true;
            return signal;
        }
    }
}
