package dev.senders.scope;

import dev.senders.Env;
import dev.senders.Hooks;
import dev.senders.OperationState;
import dev.senders.Query;
import dev.senders.Receiver;
import dev.senders.Sender;
import dev.senders.StopCallback;
import dev.senders.StopToken;
import dev.senders.internal.signal.Connect;
import dev.senders.internal.signal.GuardedReceiver;
import dev.senders.internal.signal.ImmediateOperation;
import dev.senders.internal.signal.Signals;
import dev.senders.internal.VarHandles;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import dev.senders.internal.Nulls;

/**
 * {@code let_async_scope} (P3296R3): {@link Scopes#letAsyncScope(Function)} and its error-typed
 * variant.
 *
 * <p>Each start makes a fresh counting scope (no leak report: it is always joined), gives its token
 * to the function, associates the returned body sender with the scope, starts it, then starts the
 * scope's join. The result is delivered only when the join completes, i.e. when the body and all
 * work spawned with the token are done. The rule of P3296R3: the first error (the function
 * throwing, the body failing, or work spawned with the token failing) wins and requests stop on
 * everything still associated; later errors are discarded. With no error: the body's value, or
 * stopped if the body stopped.
 */
final class LetAsyncScope<T> implements Sender<T> {

    private final Function<? super AsyncScopeToken, ? extends Sender<T>> fn;
    private final @Nullable Class<? extends Throwable> errorType; // null: every error is permitted

    LetAsyncScope(Function<? super AsyncScopeToken, ? extends Sender<T>> fn, @Nullable Class<? extends Throwable> errorType) {
        this.fn = fn;
        this.errorType = errorType;
    }

    @Override
    public OperationState connect(Receiver<? super T> receiver) {
        return new Op<>(fn, errorType, Objects.requireNonNull(receiver, "receiver"));
    }

    static final class Op<T> implements OperationState, Runnable, Consumer<Throwable> {
        private final Function<? super AsyncScopeToken, ? extends Sender<T>> fn;
        private final @Nullable Class<? extends Throwable> errorType;
        private final Receiver<? super T> receiver;
        private @Nullable ScopeCore core;
        /** The receiver's env with an unstoppable token: what the body and spawned work see (under wrap). */
        private @Nullable Env workEnv;
        private @Nullable StopCallback outerCallback;
        private volatile @Nullable Throwable firstError;
        private volatile boolean foreignError;
        private @Nullable T value;
        private boolean bodyValue;

        Op(Function<? super AsyncScopeToken, ? extends Sender<T>> fn, @Nullable Class<? extends Throwable> errorType,
                Receiver<? super T> receiver) {
            this.fn = fn;
            this.errorType = errorType;
            this.receiver = receiver;
        }

        @Override
        public void start() {
            if (core != null) {
                throw ImmediateOperation.startedTwice("letAsyncScope's operation");
            }
            Env env = receiver.env();
            ScopeCore c = new ScopeCore("letAsyncScope", true, this, true);
            // P3296R3: the receiver's env reaches the spawned work and the body, with the scope's
            // own token (linked to the receiver's below) in place of the receiver's. Spawned work
            // sees it directly: spawn skips wrap when the env already carries the scope's token
            // (S7). The body's receiver offers a token that cannot stop, so that wrap's
            // stopWhen binds the scope's token directly (no stop source, no callbacks).
            c.spawnEnv = env.with(Query.STOP_TOKEN, Nulls.nonNull(c.stopSource).token()); // stoppable core
            workEnv = env.with(Query.STOP_TOKEN, StopToken.never());
            core = c;
            StopToken outer = env.stopToken();
            if (outer.stopPossible()) {
                outerCallback = outer.onStop(this);
            }
            Sender<T> body = null;
            try {
                body = Objects.requireNonNull(fn.apply(c), "letAsyncScope: the function returned null");
            } catch (Throwable t) {
                Signals.throwIfFatal(t);
                onError(t);
            }
            if (body != null) {
                c.tryAssociate(); // a fresh scope is open: always succeeds
                OperationState op = null;
                BodyReceiver br = new BodyReceiver();
                try {
                    op = Connect.checked(c.wrap(body), br);
                } catch (Throwable t) {
                    Signals.throwIfFatal(t);
                    onError(t);
                    c.dissociate();
                }
                if (op != null && br.beginStart()) {
                    op.start();
                }
            }
            c.join().connect(new JoinReceiver()).start();
        }

        /** The receiver's stop request: stop everything associated with the scope. */
        @Override
        public void run() {
            Nulls.nonNull(Nulls.nonNull(core).stopSource).requestStop(); // started: a stoppable core
        }

        /** The scope's handler for errors of spawned work. */
        @Override
        public void accept(Throwable e) {
            onError(e);
        }

        void onError(Throwable e) {
            if (errorType != null && !errorType.isInstance(e)) {
                foreignError = true;
                Hooks.onErrorDropped(e);
            } else {
                FIRST_ERROR.compareAndSet(this, null, e);
            }
            Nulls.nonNull(Nulls.nonNull(core).stopSource).requestStop(); // started: a stoppable core
        }

        private void finish(@Nullable Throwable joinError, boolean joinStopped) {
            StopCallback cb = outerCallback;
            if (cb != null) {
                cb.close();
            }
            Throwable e = firstError;
            if (e != null) {
                Signals.setError(receiver, e);
            } else if (joinError != null) {
                Signals.setError(receiver, joinError);
            } else if (bodyValue && !foreignError && !joinStopped) {
                T v = value;
                value = null;
                Signals.setValue(receiver, v);
            } else {
                Signals.setStopped(receiver);
            }
        }

        /**
         * The body's receiver, guarded like spawn's and nest's ({@link GuardedReceiver}): a body
         * sender that completes twice is reported and releases nothing; one that completes before
         * start has that violation delivered as its error.
         */
        final class BodyReceiver extends GuardedReceiver<T> {
            @Override
            protected String algorithm() {
                return "letAsyncScope";
            }

            @Override
            protected void onValue(@Nullable T v) {
                value = v;
                bodyValue = true;
                Nulls.nonNull(core).dissociate(); // set in start, before the body runs
            }

            @Override
            protected void onError(Throwable error) {
                try {
                    Op.this.onError(error);
                } finally {
                    Nulls.nonNull(core).dissociate(); // set in start, before the body runs
                }
            }

            @Override
            protected void onStopped() {
                Nulls.nonNull(core).dissociate(); // set in start, before the body runs
            }

            @Override
            public Env env() {
                return Nulls.nonNull(workEnv); // the body is wrapped like spawned work: it sees the scope's token
            }
        }

        final class JoinReceiver implements Receiver<Void> {
            @Override
            public void setValue(@Nullable Void v) {
                finish(null, false);
            }

            @Override
            public void setError(Throwable error) {
                finish(error, false);
            }

            @Override
            public void setStopped() {
                finish(null, true);
            }

            @Override
            public Env env() {
                return Nulls.nonNull(workEnv); // the scheduler, but a token that cannot stop: a stopped join would end us early
            }
        }

        private static final VarHandle FIRST_ERROR = VarHandles.field(MethodHandles.lookup(), Op.class, "firstError", Throwable.class);
    }
}
