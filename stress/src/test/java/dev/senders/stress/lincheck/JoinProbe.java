package dev.senders.stress.lincheck;

import dev.senders.Receiver;
import dev.senders.Sender;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The receiver of a scope's join in the scenarios: records that it completed (and adds one to a
 * counter the scenario may share between its joins); a join never fails or stops, so either is an
 * {@link AssertionError}.
 */
final class JoinProbe implements Receiver<Void> {

    private final AtomicInteger completions;
    private volatile boolean done;

    private JoinProbe(AtomicInteger completions) {
        this.completions = completions;
    }

    /** Connects and starts {@code join}; every completion adds one to {@code completions}. */
    static JoinProbe start(Sender<Void> join, AtomicInteger completions) {
        JoinProbe p = new JoinProbe(completions);
        join.connect(p).start();
        return p;
    }

    /** Connects and starts {@code join}, counting its completions on its own. */
    static JoinProbe start(Sender<Void> join) {
        return start(join, new AtomicInteger());
    }

    /** Whether the join has completed. */
    boolean done() {
        return done;
    }

    @Override
    public void setValue(Void v) {
        done = true;
        completions.incrementAndGet();
    }

    @Override
    public void setError(Throwable e) {
        throw new AssertionError("a join failed", e);
    }

    @Override
    public void setStopped() {
        throw new AssertionError("a join stopped");
    }
}
