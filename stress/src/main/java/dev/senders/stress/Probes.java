package dev.senders.stress;

import dev.senders.Env;
import dev.senders.InplaceStopSource;
import dev.senders.OperationState;
import dev.senders.Query;
import dev.senders.Receiver;
import dev.senders.Sender;
import dev.senders.StopCallback;
import dev.senders.StopToken;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;
import dev.senders.reactor.ReactorSenders;
import reactor.core.publisher.Operators;
import reactor.util.context.Context;

/**
 * Small instrumented parties shared by the stress tests: they count and record what happened to
 * them, atomically, so that a duplicated or lost signal shows up in a test's result instead of
 * being hidden by a data race in the probe itself.
 */
final class Probes {

    private Probes() {}

    /** Outcome codes used by the tests' results for "which thread did it". */
    static final int NOWHERE = 0, ON_FIRST = 1, ON_SECOND = 2, ON_OTHER = 3;

    /**
     * A stop callback that counts its runs, remembers the thread of its (last) run and, if given a
     * token, whether that token reported stop requested while it ran. With {@code spins > 0} it
     * busy-waits that many {@link Thread#onSpinWait()}s between "started" and "finished", to widen
     * the window in which another thread sees it running.
     */
    static final class Callback implements Runnable {
        private final StopToken token;
        private final int spins;
        volatile int started;
        volatile int finished;
        volatile Thread ranOn;
        volatile boolean sawStopRequested = true;

        Callback() {
            this(null, 0);
        }

        Callback(StopToken token, int spins) {
            this.token = token;
            this.spins = spins;
        }

        @Override
        public void run() {
            STARTED.getAndAdd(this, 1);
            ranOn = Thread.currentThread();
            if (token != null && !token.stopRequested()) {
                sawStopRequested = false;
            }
            for (int i = 0; i < spins; i++) {
                Thread.onSpinWait();
            }
            FINISHED.getAndAdd(this, 1);
        }

        /**
         * What a thread sees of this callback at one instant: 0 never started, 1 started and not
         * finished (running), 2 finished; 3 more than one run.
         */
        int snapshot() {
            int f = finished;
            int s = started;
            if (s > 1 || f > 1) {
                return 3;
            }
            if (s == 0) {
                return 0;
            }
            return f == 1 ? 2 : 1;
        }

        /** {@link #ON_FIRST}, {@link #ON_SECOND}, {@link #NOWHERE} or {@link #ON_OTHER}. */
        int where(Thread first, Thread second) {
            Thread t = ranOn;
            if (t == null) {
                return NOWHERE;
            }
            if (t == first) {
                return ON_FIRST;
            }
            return t == second ? ON_SECOND : ON_OTHER;
        }

        private static final VarHandle STARTED;
        private static final VarHandle FINISHED;

        static {
            try {
                MethodHandles.Lookup l = MethodHandles.lookup();
                STARTED = l.findVarHandle(Callback.class, "started", int.class);
                FINISHED = l.findVarHandle(Callback.class, "finished", int.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }
    }

    /** Completion codes a {@link Recorder} reports. */
    static final int NONE = 0, VALUE = 1, ERROR = 2, STOPPED = 3;

    /**
     * A receiver that records how (value, error, stopped) and how many times it completed, and on
     * which thread. Its env carries the given stop token. An optional action runs on value.
     */
    static final class Recorder<T> implements Receiver<T> {
        private final Env env;
        private final Runnable onValue;
        volatile int kind;
        volatile int completions;
        volatile Thread completedOn;
        volatile Throwable error;
        volatile Object value;

        Recorder() {
            this(StopToken.never(), null);
        }

        Recorder(StopToken token, Runnable onValue) {
            this(Env.of(Query.STOP_TOKEN, token), onValue);
        }

        Recorder(Env env, Runnable onValue) {
            this.env = env;
            this.onValue = onValue;
        }

        @Override
        public void setValue(T value) {
            this.value = value;
            complete(VALUE);
            if (onValue != null) {
                onValue.run();
            }
        }

        @Override
        public void setError(Throwable e) {
            error = e;
            complete(ERROR);
        }

        @Override
        public void setStopped() {
            complete(STOPPED);
        }

        private void complete(int k) {
            COMPLETIONS.getAndAdd(this, 1);
            completedOn = Thread.currentThread();
            kind = k;
        }

        @Override
        public Env env() {
            return env;
        }

        private static final VarHandle COMPLETIONS;

        static {
            try {
                COMPLETIONS = MethodHandles.lookup().findVarHandle(Recorder.class, "completions", int.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }
    }

    /**
     * A single-shot sender driven by the test: {@code connect} publishes its receiver, {@code start}
     * records that it started (and registers a stop callback on the receiver's token). The test
     * completes it by calling {@link #complete(int)} from an actor; a stop request on the
     * receiver's token completes it with {@code setStopped()} on the stopping thread. At most one
     * of the two completes the receiver (a CAS on {@code completed}): this sender never breaks the
     * protocol itself, so every duplicate the test sees is the library's.
     */
    static final class Manual<T> implements Sender<T> {
        private final T value;
        private final Throwable error;
        volatile Receiver<? super T> receiver;
        volatile int started;
        /** 0 not yet; VALUE, ERROR or STOPPED: how this sender completed its receiver. */
        volatile int completed;
        /** Whether the receiver's token reported stop requested when the test completed it (or stop completed it). */
        volatile boolean sawStop;
        /** Whether the stop callback registered in start ran. */
        volatile int stopCallbackRuns;
        private volatile StopCallback callback;
        /** When false, a stop request is only observed ({@link #stopRequested()}), not answered. */
        private final boolean answersStop;

        Manual(T value) {
            this(value, null);
        }

        Manual(T value, Throwable error) {
            this(value, error, true);
        }

        Manual(T value, Throwable error, boolean answersStop) {
            this.value = value;
            this.error = error;
            this.answersStop = answersStop;
        }

        @Override
        public OperationState connect(Receiver<? super T> r) {
            receiver = r;
            return () -> {
                started = 1;
                StopToken t = r.env().stopToken();
                if (answersStop && t.stopPossible()) {
                    callback = t.onStop(() -> {
                        STOP_RUNS.getAndAdd(this, 1);
                        complete(STOPPED);
                    });
                }
            };
        }

        /** Completes the receiver with {@code kind} unless it was completed already; true if this call did. */
        boolean complete(int kind) {
            if (!COMPLETED.compareAndSet(this, 0, kind)) {
                return false;
            }
            Receiver<? super T> r = receiver;
            sawStop = r.env().stopToken().stopRequested();
            StopCallback cb = callback;
            if (cb != null) {
                cb.close(); // a well-behaved sender deregisters before completing
            }
            switch (kind) {
                case VALUE:
                    r.setValue(value);
                    break;
                case ERROR:
                    r.setError(error);
                    break;
                default:
                    r.setStopped();
            }
            return true;
        }

        /** Whether stop has been requested on the token the receiver sees. */
        int stopRequested() {
            Receiver<? super T> r = receiver;
            return r != null && r.env().stopToken().stopRequested() ? 1 : 0;
        }

        private static final VarHandle COMPLETED;
        private static final VarHandle STOP_RUNS;

        static {
            try {
                MethodHandles.Lookup l = MethodHandles.lookup();
                COMPLETED = l.findVarHandle(Manual.class, "completed", int.class);
                STOP_RUNS = l.findVarHandle(Manual.class, "stopCallbackRuns", int.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }
    }

    /**
     * A Reactive Streams publisher driven by the test: {@code subscribe} records the subscriber and,
     * if {@code onSubscribeAtOnce}, hands it {@link #subscription} at once (else the test calls
     * {@code onSubscribe} from an actor). The subscription only counts: {@code request} sets
     * {@link #requested} and stays inside for a few spins, so that a signal or a cancel from the
     * other actor lands while it runs; a {@code cancel} that comes while a {@code request} is running
     * breaks §2.7 (calls on a subscription must be serial) and is recorded.
     */
    static final class ManualPublisher<T> implements Publisher<T> {
        private final boolean onSubscribeAtOnce;
        volatile Subscriber<? super T> subscriber;
        volatile int requests;
        volatile int cancels;
        volatile boolean requested;
        volatile int cancelDuringRequest;
        private volatile int inRequest;

        final Subscription subscription = new Subscription() {
            @Override
            public void request(long n) {
                REQUESTS.getAndAdd(ManualPublisher.this, 1);
                inRequest = 1;
                requested = true;
                for (int i = 0; i < 8; i++) {
                    Thread.onSpinWait();
                }
                inRequest = 0;
            }

            @Override
            public void cancel() {
                if (inRequest != 0) {
                    cancelDuringRequest = 1;
                }
                CANCELS.getAndAdd(ManualPublisher.this, 1);
            }
        };

        ManualPublisher(boolean onSubscribeAtOnce) {
            this.onSubscribeAtOnce = onSubscribeAtOnce;
        }

        @Override
        public void subscribe(Subscriber<? super T> s) {
            subscriber = s;
            if (onSubscribeAtOnce) {
                s.onSubscribe(subscription);
            }
        }

        private static final VarHandle REQUESTS;
        private static final VarHandle CANCELS;

        static {
            try {
                MethodHandles.Lookup l = MethodHandles.lookup();
                REQUESTS = l.findVarHandle(ManualPublisher.class, "requests", int.class);
                CANCELS = l.findVarHandle(ManualPublisher.class, "cancels", int.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }
    }

    /**
     * Counts the elements a Reactor discard hook receives, and which ones (a bit per element value
     * 0..30), atomically: the hook may be called from both actors at once.
     */
    static final class Discards {
        volatile int count;
        volatile int mask;

        void accept(Object v) {
            COUNT.getAndAdd(this, 1);
            MASK.getAndBitwiseOr(this, 1 << (Integer) v);
        }

        private static final VarHandle COUNT;
        private static final VarHandle MASK;

        static {
            try {
                MethodHandles.Lookup l = MethodHandles.lookup();
                COUNT = l.findVarHandle(Discards.class, "count", int.class);
                MASK = l.findVarHandle(Discards.class, "mask", int.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }
    }

    /**
     * What the {@code fromPublisher} tests race on: a {@link ManualPublisher}, and a receiver whose
     * env carries a stop source's token and a Reactor discard hook ({@link Discards}) in
     * {@code ReactorSenders.CONTEXT}. {@link #requestStop()} also records whether the receiver had
     * completed when the stop request returned.
     */
    static final class FromPublisherRig<T> {
        final ManualPublisher<Integer> publisher;
        final Discards discards = new Discards();
        final InplaceStopSource stop = new InplaceStopSource();
        final Recorder<T> receiver = new Recorder<>(Env.of(Query.STOP_TOKEN, stop.token())
                .with(ReactorSenders.CONTEXT, Operators.enableOnDiscard(Context.empty(), discards::accept)), null);
        int doneAtStopReturn;

        FromPublisherRig(boolean onSubscribeAtOnce) {
            publisher = new ManualPublisher<>(onSubscribeAtOnce);
        }

        void requestStop() {
            stop.requestStop();
            doneAtStopReturn = receiver.completions > 0 ? 1 : 0;
        }
    }
}
