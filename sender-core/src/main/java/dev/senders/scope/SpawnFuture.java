package dev.senders.scope;

import dev.senders.Env;
import dev.senders.Hooks;
import dev.senders.InplaceStopSource;
import dev.senders.OperationState;
import dev.senders.ProtocolViolationException;
import dev.senders.Query;
import dev.senders.Receiver;
import dev.senders.Sender;
import dev.senders.StopCallback;
import dev.senders.StopToken;
import dev.senders.internal.Signals;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Objects;

/**
 * The future sender of {@link Scopes#spawnFuture} ({@code future-sender}, P3149R6
 * [exec.spawn.future]). Single-shot.
 *
 * <h2>Implementation notes</h2>
 *
 * <p>{@link State} is both the receiver of the spawned work and the rendezvous with the consumer.
 * Its {@code state} word is a set of bits, each set once, by CAS:
 * <pre>
 *   CONNECTED  1   the future was connected (a second connect throws)
 *   RESULT     2   the work completed; kind/value/error are written before this bit
 *   STARTED    4   the consumer's operation was started; consumer/callback written before this bit
 *   DONE       8   the consumer was (or is being) completed: whoever sets it delivers, exactly once
 *   ABANDONED 16   the future became unreachable unconsumed (Cleaner)
 * </pre>
 * The three racers: the work's completion (sets RESULT; if STARTED and not DONE also sets DONE
 * and delivers the result), the consumer's start (registers its stop callback, then sets STARTED;
 * if RESULT is already there also sets DONE and delivers inline) and the consumer's stop callback
 * (sets DONE if not set, requests stop on the work and completes the consumer stopped at once,
 * without waiting for the work). The scope's count is held until the work itself completes, however
 * the consumer ends.
 */
final class SpawnFuture<T> implements Sender<T> {

    static final int CONNECTED = 1, RESULT = 2, STARTED = 4, DONE = 8, ABANDONED = 16, CLAIMED = 32;
    static final int VALUE = 1, ERROR = 2, STOPPED = 3;

    private final State<T> state;

    private SpawnFuture(State<T> state) {
        this.state = state;
    }

    static <T> Sender<T> spawn(Sender<T> sender, AsyncScopeToken token, Env env) {
        if (!token.tryAssociate()) {
            return unassociated();
        }
        Env base = env != null ? env : token instanceof ScopeCore ? ((ScopeCore) token).spawnEnv : Env.empty();
        State<T> st = new State<>(token, base);
        OperationState op;
        try {
            op = Objects.requireNonNull(token.wrap(sender), "token.wrap returned null").connect(st);
        } catch (Throwable t) {
            token.dissociate();
            throw t;
        }
        SpawnFuture<T> f = new SpawnFuture<>(st);
        ScopeCore.CLEANER.register(f, st::abandon);
        st.linkOuterStop();
        op.start();
        return f;
    }

    @SuppressWarnings("unchecked")
    private static <T> Sender<T> unassociated() {
        return (Sender<T>) UNASSOCIATED;
    }

    private static final Sender<Object> UNASSOCIATED = r -> {
        Objects.requireNonNull(r, "receiver");
        return () -> Signals.setStopped(r);
    };

    @Override
    public OperationState connect(Receiver<? super T> receiver) {
        Objects.requireNonNull(receiver, "receiver");
        State<T> st = state;
        for (;;) {
            int s = st.state;
            if ((s & CONNECTED) != 0) {
                throw new IllegalStateException("the sender returned by spawnFuture is single-shot and was"
                        + " already connected (P3149R6 [exec.spawn.future]: a future-sender is move-only)");
            }
            if (STATE.compareAndSet(st, s, s | CONNECTED)) {
                break;
            }
        }
        return new ConsumerOp<>(st, receiver, this);
    }

    static final class ConsumerOp<T> implements OperationState {
        private final State<T> st;
        private final Receiver<? super T> receiver;
        @SuppressWarnings("unused")
        private final Object keepAlive; // the future stays reachable (not "dropped") while its op is

        ConsumerOp(State<T> st, Receiver<? super T> receiver, Object keepAlive) {
            this.st = st;
            this.receiver = receiver;
            this.keepAlive = keepAlive;
        }

        @Override
        public void start() {
            st.consumerStart(receiver);
        }
    }

    static final class State<T> implements Receiver<T>, Runnable {
        private final AsyncScopeToken token;
        private final InplaceStopSource source = new InplaceStopSource();
        private final Env workEnv;
        private final StopToken outerStop;
        private StopCallback outerCallback;
        volatile int state;
        private int kind;
        private T value;
        private Throwable error;
        private Receiver<? super T> consumer;
        private StopCallback consumerCallback;

        State(AsyncScopeToken token, Env base) {
            this.token = token;
            this.outerStop = base.stopToken();
            this.workEnv = base.with(Query.STOP_TOKEN, source.token());
        }

        void linkOuterStop() {
            if (outerStop.stopPossible()) {
                outerCallback = outerStop.onStop(source::requestStop);
            }
        }

        // ---- the work's receiver

        @Override
        public Env env() {
            return workEnv;
        }

        @Override
        public void setValue(T v) {
            if (claim("setValue")) {
                value = v;
                workDone(VALUE);
            }
        }

        @Override
        public void setError(Throwable e) {
            if (claim("setError")) {
                error = e == null ? new NullPointerException("spawnFuture: the work called setError(null)") : e;
                workDone(ERROR);
            }
        }

        @Override
        public void setStopped() {
            if (claim("setStopped")) {
                workDone(STOPPED);
            }
        }

        /**
         * The work's first completion sets {@code CLAIMED}; a second one is a protocol violation,
         * reported, and must neither overwrite the result nor release the association again.
         */
        private boolean claim(String signal) {
            int prev = (int) STATE.getAndBitwiseOr(this, CLAIMED);
            if ((prev & CLAIMED) == 0) {
                return true;
            }
            Hooks.onErrorDropped(new ProtocolViolationException("spawnFuture: the spawned sender called " + signal
                    + " after it had already completed ([exec.recv]: exactly one completion)"));
            return false;
        }

        private void workDone(int k) {
            kind = k;
            StopCallback oc = outerCallback;
            if (oc != null) {
                oc.close();
            }
            boolean deliver;
            int s = state;
            for (;;) {
                deliver = (s & STARTED) != 0 && (s & DONE) == 0;
                int ns = s | RESULT | (deliver ? DONE : 0);
                int prev = (int) STATE.compareAndExchange(this, s, ns);
                if (prev == s) {
                    break;
                }
                s = prev;
            }
            // the work has ended: release the scope before handing the result on
            token.dissociate();
            if (deliver) {
                deliver();
            } else if ((s & ABANDONED) != 0 && k == ERROR) {
                Hooks.onErrorDropped(error); // the future was dropped: nobody else will see it
            }
        }

        // ---- the consumer

        void consumerStart(Receiver<? super T> r) {
            consumer = r;
            StopToken st = r.env().stopToken();
            if (st.stopPossible()) {
                consumerCallback = st.onStop(this);
            }
            int s = state;
            for (;;) {
                if ((s & DONE) != 0) {
                    return; // the stop callback ran inline and completed the consumer
                }
                boolean ready = (s & RESULT) != 0;
                int ns = s | STARTED | (ready ? DONE : 0);
                int prev = (int) STATE.compareAndExchange(this, s, ns);
                if (prev == s) {
                    if (ready) {
                        deliver();
                    }
                    return;
                }
                s = prev;
            }
        }

        /** The consumer's stop callback: forward the stop, complete the consumer at once. */
        @Override
        public void run() {
            int s = state;
            for (;;) {
                if ((s & DONE) != 0) {
                    return;
                }
                int prev = (int) STATE.compareAndExchange(this, s, s | DONE | STARTED);
                if (prev == s) {
                    break;
                }
                s = prev;
            }
            source.requestStop();
            StopCallback cb = consumerCallback;
            if (cb != null) {
                cb.close(); // returns at once: we are inside it
            }
            Signals.setStopped(consumer);
        }

        private void deliver() {
            StopCallback cb = consumerCallback;
            if (cb != null) {
                cb.close();
            }
            Receiver<? super T> r = consumer;
            switch (kind) {
                case VALUE:
                    T v = value;
                    value = null;
                    Signals.setValue(r, v);
                    break;
                case ERROR:
                    Signals.setError(r, error);
                    break;
                default:
                    Signals.setStopped(r);
            }
        }

        /** Cleaner action: the future became unreachable without its consumer starting. */
        void abandon() {
            int s = state;
            for (;;) {
                if ((s & STARTED) != 0) {
                    return;
                }
                int prev = (int) STATE.compareAndExchange(this, s, s | ABANDONED);
                if (prev == s) {
                    break;
                }
                s = prev;
            }
            if ((s & RESULT) == 0) {
                source.requestStop();
            } else if (kind == ERROR) {
                Hooks.onErrorDropped(error);
            }
        }
    }

    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(State.class, "state", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
