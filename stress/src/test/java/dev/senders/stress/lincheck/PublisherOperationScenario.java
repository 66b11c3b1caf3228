package dev.senders.stress.lincheck;

import dev.senders.Env;
import dev.senders.InplaceStopSource;
import dev.senders.OperationState;
import dev.senders.Query;
import dev.senders.Receiver;
import dev.senders.Sender;
import dev.senders.reactor.ReactorSenders;
import java.util.ArrayList;
import java.util.List;
import org.jetbrains.kotlinx.lincheck.execution.ExecutionScenario;
import org.jetbrains.lincheck.datastructures.ManagedStrategyGuarantee;
import org.jetbrains.lincheck.datastructures.Operation;

/**
 * The Reactive Streams boundary, publisher to sender: {@code PublisherOperation}, the one
 * subscriber-to-sender state machine, through Reactor's shell ({@link ReactorSenders}, whose
 * discard and dropped-error hooks make every element and error accountable). Two scenarios use
 * it: {@link PublisherOperationLincheckTest} ({@code fromPublisher}: request 1, the first element
 * completes and cancels) and {@link PublisherOperationListLincheckTest} ({@code fromPublisherAll}:
 * unbounded, a list). The racing entry points are the operations: {@code start()} (the publisher
 * records the subscriber, or, {@link #startSubscribingInline}, hands it the subscription before
 * {@code subscribe} returns), the publisher's signals {@code onSubscribe}, {@code onNext},
 * {@code onComplete}, {@code onError} (serial among themselves, §1.3, but from any threads:
 * {@link ScriptedPublisher}), and a stop request on the receiver's token ({@link #stop}, once),
 * which cancels the subscription.
 *
 * <p><b>Results</b> (linearizable against the {@link Spec}): each operation returns the completion
 * the receiver got during that call ({@code value:v}, {@code error:...}, {@code stopped}, or
 * {@link SignalLog#NONE}). The specification: the receiver is completed exactly once; by the
 * first element that arrives within the demand (in list mode: by {@code onComplete}, with every
 * element so far), by {@code onComplete} ({@code null}, or the list), by the publisher's error, or
 * stopped by a stop request after start; a start after a stop request completes stopped at once
 * without subscribing; the demand is requested only if the subscription arrives before the
 * completion; nothing reaches the receiver after its completion.
 *
 * <p><b>Invariants</b> (after every run): the subscription was used serially (§2.7), requested
 * at most once with the mode's demand and never after the cancel; it was cancelled exactly once if
 * it was handed over and the completion was ours (the element or the stop), else never; once the
 * receiver has its completion, every element sent reached the receiver or the discard hook,
 * exactly once; the publisher's error reached the receiver or the {@code onErrorDropped} hook,
 * exactly once; nothing else was dropped. Then the race is over: a started receiver without a
 * completion gets one when the publisher completes, and the invariants hold again.
 *
 * <p>What Lincheck cannot express here: a publisher that breaks §1.3 (two signals at once) makes
 * the outcome depend on which overlap the state machine can see, so it has no sequential
 * specification; those rules are unit-tested ({@code FromPublisherTest}) and the overlaps that
 * matter are jcstress tests ({@code FromPublisher*}). The model checker runs under sequential
 * consistency, so the plain fields of the serial signal path (published by the publisher's own
 * synchronization and by the state word's CAS) are jcstress's part too. Two stop requests are
 * not two steps: the second returns at once, possibly before the first one's callback (this
 * operation's cancel) has run, so "the receiver was stopped by the time a stop request returned"
 * is no property of the contract (the stop source's own races are
 * {@link InplaceStopSourceLincheckTest}'s); the scenario requests stop once.
 */
public abstract class PublisherOperationScenario extends LincheckScenario {

    private final ScriptedPublisher publisher = new ScriptedPublisher();
    private final InplaceStopSource stopSource = new InplaceStopSource();
    private final SignalLog log = new SignalLog();
    private final ReactorDrops drops = new ReactorDrops();
    private final Object startLock = new Object();
    private volatile boolean started;
    private final OperationState operation;
    private final boolean list;

    /** @param list {@code fromPublisherAll} (unbounded demand, a list, buffers handed over) instead of {@code fromPublisher} */
    protected PublisherOperationScenario(boolean list) {
        this.list = list;
        Env env = Env.of(Query.STOP_TOKEN, stopSource.token()).with(ReactorSenders.CONTEXT, drops.context());
        Receiver<Object> receiver = new Receiver<>() {
            @Override
            public void setValue(Object v) {
                log.add("value:" + v);
            }

            @Override
            public void setError(Throwable e) {
                log.addError(e);
            }

            @Override
            public void setStopped() {
                log.add("stopped");
            }

            @Override
            public Env env() {
                return env;
            }
        };
        Sender<?> sender = list ? ReactorSenders.fromPublisherAll(publisher) : ReactorSenders.fromPublisher(publisher);
        @SuppressWarnings({"unchecked", "rawtypes"}) // the receiver takes any value
        OperationState op = ((Sender) sender).connect(receiver);
        operation = op;
    }

    /** Starts the operation: the publisher records the subscriber. */
    @Operation(runOnce = true)
    public String start() {
        return start(false);
    }

    /** Starts the operation, the publisher handing over the subscription inside {@code subscribe}. */
    @Operation(runOnce = true)
    public String startSubscribingInline() {
        return start(true);
    }

    /**
     * The operation's one start, whichever start operation comes first; the lock makes the other
     * one wait until it is done (else it could return before the start it lost to began).
     */
    private String start(boolean inline) {
        int mark = log.mark();
        synchronized (startLock) {
            if (!started) {
                started = true;
                if (inline) {
                    publisher.onSubscribeInSubscribe();
                }
                operation.start();
            }
        }
        return log.since(mark);
    }

    @Operation
    public String onSubscribe() {
        int mark = log.mark();
        publisher.onSubscribe();
        return log.since(mark);
    }

    @Operation
    public String onNext() {
        int mark = log.mark();
        publisher.onNext();
        return log.since(mark);
    }

    @Operation
    public String onComplete() {
        int mark = log.mark();
        publisher.onComplete();
        return log.since(mark);
    }

    @Operation
    public String onError() {
        int mark = log.mark();
        publisher.onError();
        return log.since(mark);
    }

    /**
     * A stop request on the receiver's token; once per scenario: a second request returns at once
     * while the first one's callbacks may still be running (the stop source's contract), so it is
     * no step of this state machine.
     */
    @Operation(runOnce = true)
    public String stop() {
        int mark = log.mark();
        stopSource.requestStop();
        return log.since(mark);
    }

    /**
     * The orders random generation rarely makes: the stop against each step of a subscription
     * (start, the hand-over with its request, the element, the terminal signals), and the
     * element against the terminal signal after a stop.
     */
    @Override
    protected List<ExecutionScenario> customScenarios() {
        return List.of(
                scenario().thread("start").thread("stop").thread("onSubscribe", "onNext").build(),
                scenario().thread("startSubscribingInline", "onNext").thread("stop").build(),
                scenario().initial("start").thread("onSubscribe", "onNext", "onComplete").thread("stop").build(),
                scenario().initial("start", "onSubscribe").thread("onNext", "onNext").thread("stop").build(),
                scenario().initial("start", "onSubscribe").thread("onNext", "onError").thread("stop").build(),
                scenario().initial("start", "onSubscribe", "onNext").thread("onComplete").thread("stop").build(),
                scenario().initial("start", "onSubscribe").thread("onError").thread("stop").build(),
                scenario().thread("stop", "onSubscribe").thread("start", "onNext").build());
    }

    @Override
    protected List<ManagedStrategyGuarantee> guarantees() {
        return ReactorDrops.PROBES_AND_HOOKS;
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
    protected void invariants() {
        check();
        // the race is over: a started receiver without its completion gets one when the publisher completes
        if (started && log.all().isEmpty()) {
            publisher.onSubscribe();
            publisher.onComplete();
            if (log.all().size() != 1) {
                throw new AssertionError("a started receiver was not completed by onSubscribe + onComplete: " + state());
            }
            check();
        }
    }

    private void check() {
        List<String> signals = log.all();
        if (signals.size() > 1) {
            throw new AssertionError("the receiver completed more than once: " + state());
        }
        String outcome = signals.isEmpty() ? null : signals.get(0);
        if (publisher.violation != null) {
            throw new AssertionError(publisher.violation + ": " + state());
        }
        long demand = list ? Long.MAX_VALUE : 1;
        if (publisher.requests.get() > 1 || (publisher.requests.get() == 1 && publisher.requested.get() != demand)) {
            throw new AssertionError("requested other than once with " + demand + ": " + state());
        }
        boolean ours = "stopped".equals(outcome) || (!list && outcome != null && outcome.startsWith("value:")
                && !outcome.equals("value:null"));
        int expectedCancels = publisher.subscribed() && ours ? 1 : 0;
        if (publisher.cancels.get() != expectedCancels) {
            throw new AssertionError("cancelled " + publisher.cancels.get() + " times, expected " + expectedCancels + ": "
                    + state());
        }
        List<Integer> delivered = delivered(outcome);
        for (int v = 1; outcome != null && v <= publisher.emitted(); v++) { // before the completion: buffered
            int n = drops.discards(v) + (delivered.contains(v) ? 1 : 0);
            if (n != 1) {
                throw new AssertionError("element " + v + " reached the receiver or the discard hook " + n
                        + " times: " + state());
            }
        }
        int errors = drops.dropped(ScriptedPublisher.ERROR) + ("error:IllegalStateException".equals(outcome) ? 1 : 0);
        if (errors != (publisher.errorSent ? 1 : 0)) {
            throw new AssertionError("the publisher's error was delivered or dropped " + errors + " times: " + state());
        }
        Throwable other = drops.droppedOtherThan(ScriptedPublisher.ERROR);
        if (other != null) {
            throw new AssertionError("dropped: " + other + ": " + state(), other);
        }
    }

    /** The elements the receiver got: {@code value:3} or {@code value:[1, 2]}. */
    private static List<Integer> delivered(String outcome) {
        List<Integer> out = new ArrayList<>();
        if (outcome == null || !outcome.startsWith("value:") || outcome.equals("value:null")) {
            return out;
        }
        String v = outcome.substring("value:".length()).replace("[", "").replace("]", "");
        for (String s : v.split(",")) {
            if (!s.isBlank()) {
                out.add(Integer.parseInt(s.trim()));
            }
        }
        return out;
    }

    private String state() {
        return "receiver " + log + ", started " + started + ", stop requested " + stopSource.stopRequested()
                + ", subscribed " + publisher.subscribed() + ", emitted " + publisher.emitted() + ", terminated "
                + publisher.terminated() + ", requests " + publisher.requests.get() + " (" + publisher.requested.get()
                + "), cancels " + publisher.cancels.get() + ", " + drops;
    }

    /**
     * The contract of {@code fromPublisher} as a plain state machine: the publisher's side (what it
     * was handed, the demand, what it sent) and the receiver's one completion.
     */
    public abstract static class Spec {
        private final boolean list;
        private boolean started;
        private boolean stopRequested;
        private boolean subscriberKnown; // subscribe was called
        private boolean subscribed;      // onSubscribe was called
        private long demand;
        private int emitted;
        private boolean terminated;      // the publisher's terminal signal
        private boolean done;            // the receiver has its completion
        private final List<Integer> buffer = new ArrayList<>();

        protected Spec(boolean list) {
            this.list = list;
        }

        public String start() {
            if (started) {
                return SignalLog.NONE;
            }
            started = true;
            if (stopRequested) {
                done = true;
                return "stopped";
            }
            subscriberKnown = true;
            return SignalLog.NONE;
        }

        public String startSubscribingInline() {
            if (started) {
                return SignalLog.NONE;
            }
            String r = start();
            if (subscriberKnown) {
                onSubscribe();
            }
            return r;
        }

        public String onSubscribe() {
            if (subscriberKnown && !subscribed) {
                subscribed = true;
                demand = done ? 0 : list ? Long.MAX_VALUE : 1;
            }
            return SignalLog.NONE;
        }

        public String onNext() {
            if (!subscribed || terminated || emitted >= demand) {
                return SignalLog.NONE;
            }
            int v = ++emitted;
            if (done) {
                return SignalLog.NONE; // discarded
            }
            if (list) {
                buffer.add(v);
                return SignalLog.NONE;
            }
            done = true;
            return "value:" + v;
        }

        public String onComplete() {
            if (!subscribed || terminated) {
                return SignalLog.NONE;
            }
            terminated = true;
            if (done) {
                return SignalLog.NONE;
            }
            done = true;
            return "value:" + (list ? buffer : null);
        }

        public String onError() {
            if (!subscribed || terminated) {
                return SignalLog.NONE;
            }
            terminated = true;
            if (done) {
                return SignalLog.NONE; // dropped
            }
            done = true;
            return "error:IllegalStateException";
        }

        public String stop() {
            if (stopRequested) {
                return SignalLog.NONE;
            }
            stopRequested = true;
            if (!started || done) {
                return SignalLog.NONE;
            }
            done = true;
            return "stopped";
        }
    }
}
