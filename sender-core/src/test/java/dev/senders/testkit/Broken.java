package dev.senders.testkit;

import dev.senders.OperationState;
import dev.senders.Receiver;
import dev.senders.Scheduler;
import dev.senders.Schedulers;
import dev.senders.Sender;
import java.util.concurrent.RejectedExecutionException;

/**
 * Broken parts for hostile-use tests, shared by sender-core and the adapters: a sender whose
 * {@code connect} returns null, a scheduler whose {@code schedule()} returns null, a scheduler
 * whose executor rejects everything. Test support, not published API.
 */
public final class Broken {

    private Broken() {}

    /** A broken foreign sender: connect returns null. */
    public static final class NullConnectSender<T> implements Sender<T> {
        @Override
        public OperationState connect(Receiver<? super T> receiver) {
            return null;
        }
    }

    /** A broken foreign scheduler: schedule() returns null. */
    public static final class NullScheduleScheduler implements Scheduler {
        @Override
        public Sender<Void> schedule() {
            return null;
        }
    }

    /** The executor scheduler over an executor that rejects every task. */
    public static Scheduler rejectingScheduler() {
        return Schedulers.fromExecutor(task -> {
            throw new RejectedExecutionException("the pool is full");
        });
    }

    /** Whether {@code t} or one of its causes is a {@code type} whose message contains {@code text}. */
    public static boolean causedBy(Throwable t, Class<? extends Throwable> type, String text) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (type.isInstance(c) && String.valueOf(c.getMessage()).contains(text)) {
                return true;
            }
        }
        return false;
    }
}
