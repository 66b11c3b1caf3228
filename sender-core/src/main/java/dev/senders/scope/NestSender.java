package dev.senders.scope;

import dev.senders.Env;
import dev.senders.OperationState;
import dev.senders.Receiver;
import dev.senders.Sender;
import dev.senders.internal.Signals;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Objects;

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
 * <li>if that operation is never started, the association is released when both this sender and
 *     the operation have become unreachable (a {@link java.lang.ref.Cleaner} action);
 * <li>each further {@code connect} (a multi-shot copy, in C++ terms) associates anew at connect
 *     time; if the scope is closed by then, that operation completes with {@code setStopped()}
 *     without running the child; an unstarted one is released by a {@code Cleaner} too;
 * <li>a sender never connected releases its association when it becomes unreachable, or at once
 *     when {@link #discard()} is called.
 * </ul>
 *
 * <p>Multi-shot if the given sender is. Completes on whatever thread the child completes on.
 *
 * @param <T> the value type
 */
public final class NestSender<T> implements Sender<T> {

    /** {@code token.wrap(sender)}, or null when unassociated. */
    private final Sender<T> wrapped;
    private final AsyncScopeToken token;
    /** The association made by nest until the first connect or discard takes it; then null. */
    private volatile Association first;

    NestSender(Sender<T> sender, AsyncScopeToken token) {
        this.token = token;
        if (!token.tryAssociate()) {
            this.wrapped = null;
            return;
        }
        Sender<T> w;
        try {
            w = Objects.requireNonNull(token.wrap(sender), "token.wrap returned null");
        } catch (Throwable t) {
            token.dissociate(); // strong guarantee: the scope is left as it was
            throw t;
        }
        this.wrapped = w;
        Association a = new Association(token);
        this.first = a;
        ScopeCore.CLEANER.register(this, a);
    }

    /** Whether {@code nest} associated the sender (the scope was open). */
    public boolean isAssociated() {
        return wrapped != null;
    }

    /**
     * Gives up the association made by {@code nest} if no {@code connect} has taken it yet: the
     * scope's count drops at once instead of when this sender is collected. Returns {@code true} if
     * this call released it. After a discard, the next {@code connect} associates anew (and
     * completes stopped if the scope is closed by then). Thread-safe; idempotent.
     */
    public boolean discard() {
        Association a = first;
        if (a != null && FIRST.compareAndSet(this, a, null)) {
            a.release();
            return true;
        }
        return false;
    }

    @Override
    public OperationState connect(Receiver<? super T> receiver) {
        Objects.requireNonNull(receiver, "receiver");
        if (wrapped == null) {
            return () -> Signals.setStopped(receiver);
        }
        Association a = first;
        if (a != null && FIRST.compareAndSet(this, a, null)) {
            try {
                // keep this sender reachable from the op: its Cleaner now guards the op as well
                return new Op<>(wrapped, receiver, a, this);
            } catch (Throwable t) {
                a.release();
                throw t;
            }
        }
        if (!token.tryAssociate()) {
            return () -> Signals.setStopped(receiver);
        }
        Association b = new Association(token);
        Op<T> op;
        try {
            op = new Op<>(wrapped, receiver, b, null);
        } catch (Throwable t) {
            b.release();
            throw t;
        }
        ScopeCore.CLEANER.register(op, b);
        return op;
    }

    /**
     * One association: released exactly once, by the operation that completes, by discard, or by
     * the Cleaner once nothing can release it any more. Exclusivity comes from ownership (only one
     * owner at a time), so {@code held} is a plain volatile flag, not a CAS.
     */
    static final class Association implements Runnable {
        private final AsyncScopeToken token;
        private volatile boolean held = true;

        Association(AsyncScopeToken token) {
            this.token = token;
        }

        void release() {
            held = false;
            token.dissociate();
        }

        @Override
        public void run() { // Cleaner: the owner became unreachable without releasing
            if (held) {
                release();
            }
        }
    }

    static final class Op<T> implements OperationState, Receiver<T> {
        private final Receiver<? super T> receiver;
        private final Association association;
        @SuppressWarnings("unused")
        private Object keepAlive;
        private OperationState childOp;

        Op(Sender<T> child, Receiver<? super T> receiver, Association association, Object keepAlive) {
            this.receiver = receiver;
            this.association = association;
            this.keepAlive = keepAlive;
            this.childOp = child.connect(this);
        }

        @Override
        public void start() {
            childOp.start();
        }

        @Override
        public void setValue(T value) {
            childOp = null;
            try {
                receiver.setValue(value);
            } finally {
                done();
            }
        }

        @Override
        public void setError(Throwable error) {
            childOp = null;
            try {
                receiver.setError(error);
            } finally {
                done();
            }
        }

        @Override
        public void setStopped() {
            childOp = null;
            try {
                receiver.setStopped();
            } finally {
                done();
            }
        }

        private void done() {
            keepAlive = null;
            association.release();
        }

        @Override
        public Env env() {
            return receiver.env();
        }
    }

    private static final VarHandle FIRST;

    static {
        try {
            FIRST = MethodHandles.lookup().findVarHandle(NestSender.class, "first", Association.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
