package dev.senders;

import dev.senders.internal.GuardedReceiver;
import dev.senders.internal.Signals;
import java.util.Objects;

/**
 * {@code on(sch, s)} (P2300R3 [exec.on]), named {@code startsOn}: schedules on {@code scheduler}
 * and, from there, starts the source, whose receiver's env answers {@link Query#SCHEDULER} with
 * {@code scheduler} (everything else is the downstream env). The source's completion is forwarded
 * on whatever thread it happens; an error or stopped from the schedule operation is forwarded too
 * (the source is then never started).
 */
final class StartsOn<T> implements Sender<T> {

    private final Scheduler scheduler;
    private final Sender<? extends T> source;

    StartsOn(Scheduler scheduler, Sender<? extends T> source) {
        this.scheduler = scheduler;
        this.source = source;
    }

    @Override
    public OperationState connect(Receiver<? super T> receiver) {
        Objects.requireNonNull(receiver, "receiver");
        Sender<Void> schedule = Objects.requireNonNull(scheduler.schedule(), "startsOn: schedule() returned null");
        return new Op<>(this, receiver, schedule);
    }

    /** The operation, and the receiver of the schedule operation. */
    private static final class Op<T> extends GuardedReceiver<Void> implements OperationState {
        private final StartsOn<T> on;
        private final Receiver<? super T> downstream;
        private final OperationState scheduleOp;

        Op(StartsOn<T> on, Receiver<? super T> downstream, Sender<Void> schedule) {
            this.on = on;
            this.downstream = downstream;
            this.scheduleOp = schedule.connect(this);
        }

        @Override
        public void start() {
            if (beginStart()) {
                scheduleOp.start();
            }
        }

        @Override
        protected String algorithm() {
            return "startsOn";
        }

        @Override
        public Env env() {
            return downstream.env();
        }

        @Override
        protected void onValue(Void ignored) {
            Inner<T> inner = new Inner<>(downstream, downstream.env().with(Query.SCHEDULER, on.scheduler));
            OperationState op;
            try {
                op = on.source.connect(inner);
            } catch (Throwable t) {
                Signals.throwIfFatal(t);
                Signals.setError(downstream, t);
                return;
            }
            if (inner.beginStart()) {
                Let.startForeign(op, "startsOn");
            }
        }

        @Override
        protected void onError(Throwable error) {
            Signals.setError(downstream, error);
        }

        @Override
        protected void onStopped() {
            Signals.setStopped(downstream);
        }
    }

    /** The source's receiver: forwards, with the scheduler bound in its env. */
    private static final class Inner<T> extends GuardedReceiver<T> {
        private final Receiver<? super T> downstream;
        private final Env env;

        Inner(Receiver<? super T> downstream, Env env) {
            this.downstream = downstream;
            this.env = env;
        }

        @Override
        protected String algorithm() {
            return "startsOn";
        }

        @Override
        public Env env() {
            return env;
        }

        @Override
        protected void onValue(T value) {
            Signals.setValue(downstream, value);
        }

        @Override
        protected void onError(Throwable error) {
            Signals.setError(downstream, error);
        }

        @Override
        protected void onStopped() {
            Signals.setStopped(downstream);
        }
    }
}
