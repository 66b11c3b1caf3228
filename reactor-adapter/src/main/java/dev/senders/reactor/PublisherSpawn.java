package dev.senders.reactor;

import dev.senders.OperationState;
import dev.senders.ProtocolViolationException;
import dev.senders.Receiver;
import dev.senders.Sender;
import java.util.Objects;
import org.reactivestreams.Publisher;
import reactor.core.Disposable;

/**
 * {@link ReactorScopes#spawn}: one publisher spawned into a scope, and the {@link Disposable} of
 * that one operation.
 *
 * <p>The work is {@link ReactorSenders#fromPublisherIgnoreElements}'s operation (unbounded demand,
 * elements to Reactor's discard hook, {@code onComplete} = {@code setValue(null)}, {@code onError}
 * = {@code setError}, an upstream {@code CancellationException} = {@code setStopped}) run by
 * {@link dev.senders.scope.Scopes#spawn(Sender, dev.senders.scope.AsyncScopeToken)}, which gives
 * the association, the scope's stop ({@code token.wrap}), the release after completion and the
 * error handler chain, unchanged.
 *
 * <h2>Implementation notes</h2>
 *
 * This object is the single-shot sender handed to {@code Scopes.spawn} and the {@code Disposable}
 * returned to the caller: {@code connect} (called once, inside {@code Scopes.spawn}) records the
 * operation, {@code dispose()} is that operation's {@link PublisherToSender.Operation#dispose()}: a
 * stop request that cancels upstream and completes the spawn receiver with {@code setStopped()},
 * which releases the association. No extra stop source: the operation's own terminal bit decides
 * between dispose, the scope's stop and the publisher's terminal signal. The {@code op} field is
 * written by the spawning thread before {@code ReactorScopes.spawn} returns this object, so every
 * later {@code dispose()} sees it (the caller's hand-off of the {@code Disposable} publishes it).
 */
final class PublisherSpawn implements Sender<Void>, Disposable {

    private final Publisher<?> source;
    private PublisherToSender.Operation<Object, Void> op;

    PublisherSpawn(Publisher<?> source) {
        this.source = source;
    }

    @Override
    @SuppressWarnings("unchecked")
    public OperationState connect(Receiver<? super Void> receiver) {
        Objects.requireNonNull(receiver, "receiver");
        if (op != null) {
            throw new ProtocolViolationException("ReactorScopes.spawn's sender is single-shot: connected twice");
        }
        PublisherToSender.Operation<Object, Void> o = new PublisherToSender.Operation<>(
                (Publisher<Object>) source, PublisherToSender.IGNORE, receiver);
        op = o;
        return o;
    }

    @Override
    public void dispose() {
        PublisherToSender.Operation<Object, Void> o = op;
        if (o != null) {
            o.dispose();
        }
    }

    /** {@code true} once disposed, or once the operation ended (as {@code Flux.subscribe()}'s {@code Disposable}). */
    @Override
    public boolean isDisposed() {
        PublisherToSender.Operation<Object, Void> o = op;
        return o == null || o.isTerminated();
    }

    @Override
    public String toString() {
        return "ReactorScopes.spawn(" + source + ")[disposed=" + isDisposed() + "]";
    }
}
