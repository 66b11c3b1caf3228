package dev.senders;

/**
 * A sender, receiver or publisher broke the protocol: completed twice, completed before
 * {@code start}, was started twice, or (at the Reactive Streams boundary) signalled without
 * demand. The message names the offender and the rule.
 *
 * <p>Delivered through the error channel when a receiver can still take it, else to
 * {@link Hooks#onErrorDropped(Throwable)}.
 */
public class ProtocolViolationException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    /**
     * A violation described by {@code message}, which names the offender and the rule.
     *
     * @param message what was violated, by whom
     */
    public ProtocolViolationException(String message) {
        super(message);
    }
}
