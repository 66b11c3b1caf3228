package dev.senders.scope;

import dev.senders.Env;
import dev.senders.OperationState;
import dev.senders.Receiver;
import dev.senders.Sender;
import dev.senders.internal.signal.Connect;
import dev.senders.internal.signal.GuardedReceiver;
import dev.senders.internal.signal.ImmediateOperation;
import dev.senders.internal.signal.Signals;
import dev.senders.internal.VarHandles;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.ref.Reference;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import dev.senders.internal.Nulls;

/**
 * The sender returned by {@link Scopes#nest(Sender, AsyncScopeToken)} ({@code nest-sender},
 * P3149R6 [exec.nest]): the given sender, associated with a scope but not started.
 *
 * <p><b>Associated or not.</b> {@code nest} calls {@code token.tryAssociate()} once. If that fails
 * the result is <em>unassociated</em> ({@link #isAssociated()} is false): the given sender is never
 * connected, and every connection completes with {@code setStopped()} when started. If it succeeds
 * the result holds that association and behaves exactly like {@code token.wrap(sender)}.
 *
 * <p><b>Who releases the association</b> (Java has no destructors, so this replaces the C++
 * RAII rules):
 * <ul>
 * <li>the first {@link #connect} takes the association over; its operation releases it (calls
 *     {@code dissociate()}) after the child operation has delivered its completion and the
 *     downstream receiver's completion method has returned. The operation drops its reference to the
 *     child operation <em>before</em> completing, so nothing of the child is used after the
 *     decrement (P3149: destroy the child operation state, then decrement);
 * <li>if that operation is never started, the association is released once the operation is
 *     unreachable (a {@link java.lang.ref.Cleaner} action, see below);
 * <li>each further {@code connect} (a multi-shot copy, in C++ terms) associates anew at connect
 *     time; if the scope is closed by then, that operation completes with {@code setStopped()}
 *     without running the child; an unstarted one is released by the {@code Cleaner} too;
 * <li>a sender never connected releases its association when it becomes unreachable, or at once
 *     when {@link #discard()} is called.
 * </ul>
 *
 * <p><b>Cost and the Cleaner.</b> Registering every nest sender with a {@code Cleaner} would cost
 * far more than the rest of {@code nest}. Instead nest senders of a scope are tracked in batches of
 * up to 1024 with one {@code Cleaner} registration per batch: {@code nest} is the scope's CAS, one
 * atomic add on the batch counter and the sender's allocation; completion is one atomic add and the
 * scope's CAS. The price: the association of a dropped, never-completed sender is released when
 * every sender and operation of its batch is unreachable, which a long-lived sibling can delay.
 * Call {@link #discard()} (or complete the work) to release promptly.
 *
 * <p>Multi-shot if the given sender is. Completes on whatever thread the child completes on.
 *
 * @param <T> the value type
 */
public final class NestSender<T> implements Sender<T> {

    /** {@code token.wrap(sender)}, or null when unassociated. */
    private final @Nullable Sender<T> wrapped;
    private final AsyncScopeToken token;
    /** The batch that accounts for this sender's associations; null when unassociated. */
    private final @Nullable NestBatch batch;
    /** 0 while nest's association is this sender's; 1 once a connect or discard took it. */
    private volatile int taken;

    NestSender(Sender<T> sender, AsyncScopeToken token) {
        this.token = token;
        if (!token.tryAssociate()) {
            this.wrapped = null;
            this.batch = null;
            return;
        }
        Sender<T> w;
        NestBatch b;
        try {
            w = Objects.requireNonNull(token.wrap(sender), "token.wrap returned null");
            b = NestBatch.forToken(token);
        } catch (Throwable t) {
            token.dissociate(); // strong guarantee: the scope is left as it was
            throw t;
        }
        b.counter.add();
        this.wrapped = w;
        this.batch = b;
    }

    /**
     * Whether {@code nest} associated the sender (the scope was open).
     *
     * @return {@code true} if {@code nest} associated this sender with the scope
     */
    public boolean isAssociated() {
        return wrapped != null;
    }

    /**
     * Gives up the association made by {@code nest} if no {@code connect} has taken it yet: the
     * scope's count drops at once instead of when this sender is collected. Returns {@code true} if
     * this call released it. After a discard, the next {@code connect} associates anew (and
     * completes stopped if the scope is closed by then). Thread-safe; idempotent.
     *
     * @return {@code true} if this call released the association
     */
    public boolean discard() {
        if (batch != null && taken == 0 && TAKEN.compareAndSet(this, 0, 1)) {
            try {
                batch.counter.release();
            } finally {
                Reference.reachabilityFence(this);
            }
            return true;
        }
        return false;
    }

    @Override
    public OperationState connect(Receiver<? super T> receiver) {
        Objects.requireNonNull(receiver, "receiver");
        if (wrapped == null) {
            return ImmediateOperation.stopped(receiver);
        }
        NestBatch batch = Nulls.nonNull(this.batch); // set whenever wrapped is
        if (taken == 0 && TAKEN.compareAndSet(this, 0, 1)) {
            try {
                return new Op<>(wrapped, receiver, batch);
            } catch (Throwable t) {
                batch.counter.release();
                throw t;
            }
        }
        if (!token.tryAssociate()) {
            return ImmediateOperation.stopped(receiver);
        }
        batch.counter.add();
        try {
            return new Op<>(wrapped, receiver, batch);
        } catch (Throwable t) {
            batch.counter.release();
            throw t;
        }
    }

    /**
     * The operation is also the child's receiver, guarded ({@link GuardedReceiver}): a second
     * completion of the child is reported and releases nothing; a completion before start is
     * delivered at start as a {@code ProtocolViolationException}. It completes downstream through
     * {@link Signals} (a downstream {@code setValue} that throws gets {@code setError} here: a
     * receiver that throws from {@code setValue} has not accepted the value, C1), so no exception
     * travels back into the child. The association is released exactly once.
     */
    static final class Op<T> extends GuardedReceiver<T> implements OperationState {
        private final Receiver<? super T> receiver;
        /** Keeps the batch reachable (so its Cleaner cannot run) until this operation released. */
        private final NestBatch batch;
        private @Nullable OperationState childOp;

        Op(Sender<T> child, Receiver<? super T> receiver, NestBatch batch) {
            this.receiver = receiver;
            this.batch = batch;
            this.childOp = Connect.checked(child, this);
        }

        @Override
        public void start() {
            OperationState op = childOp;
            if (beginStart()) {
                Nulls.nonNull(op).start(); // cleared only after a start
            }
        }

        @Override
        protected String algorithm() {
            return "nest";
        }

        @Override
        protected void onValue(@Nullable T value) {
            childOp = null; // finished with the child operation before the decrement
            try {
                Signals.setValue(receiver, value);
            } finally {
                done();
            }
        }

        @Override
        protected void onError(Throwable error) {
            childOp = null;
            try {
                Signals.setError(receiver, error);
            } finally {
                done();
            }
        }

        @Override
        protected void onStopped() {
            childOp = null;
            try {
                Signals.setStopped(receiver);
            } finally {
                done();
            }
        }

        private void done() {
            try {
                batch.counter.release();
            } finally {
                Reference.reachabilityFence(this);
            }
        }

        @Override
        public Env env() {
            return receiver.env();
        }
    }

    private static final VarHandle TAKEN = VarHandles.field(MethodHandles.lookup(), NestSender.class, "taken", int.class);
}
