package dev.senders;

import java.util.Objects;

/** {@code never_stop_token}: stop is never possible, callbacks are never retained. */
final class NeverStopToken implements StopToken, StopCallback {

    static final NeverStopToken INSTANCE = new NeverStopToken();

    private NeverStopToken() {}

    @Override
    public boolean stopRequested() {
        return false;
    }

    @Override
    public boolean stopPossible() {
        return false;
    }

    @Override
    public StopCallback onStop(Runnable callback) {
        Objects.requireNonNull(callback, "callback");
        return this;
    }

    @Override
    public void close() {}

    @Override
    public String toString() {
        return "StopToken.never()";
    }
}
