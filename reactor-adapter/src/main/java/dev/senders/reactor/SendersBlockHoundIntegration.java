package dev.senders.reactor;

import dev.senders.internal.SharedTimer;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import reactor.blockhound.BlockHound;
import reactor.blockhound.integration.BlockHoundIntegration;

/**
 * The library's BlockHound integration, found by {@code BlockHound.install()} through
 * {@link java.util.ServiceLoader} when reactor-adapter and BlockHound
 * ({@code io.projectreactor.tools:blockhound}, an optional dependency) are on the class path.
 *
 * <ul>
 * <li>The library's timer thread ({@code senders-timer}, which runs the stop requests of
 *     {@code Senders.timeout}) is a non-blocking thread for BlockHound: a stop callback that
 *     blocks there is reported, since it would delay every other timeout.
 * <li>The library's own short, documented waits are allowed on non-blocking threads: the timer
 *     queue's lock (scheduling and cancelling a timeout) and its idle wait, and a stop callback's
 *     deregistration waiting for that callback to finish running on another thread
 *     ({@code StopCallback.close()}, P2300's rule).
 * </ul>
 *
 * <p>Blocking inside spawned work is BlockHound's own business: work running on a Reactor
 * {@code parallel()} thread (or any thread BlockHound treats as non-blocking) that blocks gets a
 * {@code BlockingOperationError}, which the scope routes to its error handler like any error.
 * {@code syncWait} never blocks a non-blocking thread: it throws {@link IllegalStateException}
 * first (see {@code Hooks.isNonBlockingThread}).
 */
@SuppressWarnings("exports") // BlockHound is optional (requires static): only BlockHound itself calls this class
public final class SendersBlockHoundIntegration implements BlockHoundIntegration {

    /** Used by {@link java.util.ServiceLoader}. */
    public SendersBlockHoundIntegration() {}

    @Override
    public void applyTo(BlockHound.Builder builder) {
        builder.nonBlockingThreadPredicate(p -> p.or(t -> t instanceof SharedTimer.TimerThread));
        String queue = ScheduledThreadPoolExecutor.class.getName() + "$DelayedWorkQueue";
        builder.allowBlockingCallsInside(queue, "offer");
        builder.allowBlockingCallsInside(queue, "take");
        builder.allowBlockingCallsInside(queue, "poll");
        builder.allowBlockingCallsInside(queue, "remove");
        builder.allowBlockingCallsInside("dev.senders.InplaceStopSource$Stopped", "awaitDone");
    }
}
