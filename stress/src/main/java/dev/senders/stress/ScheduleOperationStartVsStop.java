package dev.senders.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.senders.InplaceStopSource;
import dev.senders.OperationState;
import dev.senders.rxjava3.RxSchedulers;
import io.reactivex.rxjava3.disposables.Disposable;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * Result: r1 = completions; r2 = the kind ({@link Probes#VALUE} 1, {@link Probes#STOPPED} 3); r3 =
 * how many times the task's handle was disposed; r4 = 1 if the task was submitted.
 */
@JCStressTest
@Description("The schedule operation with a cancel handle (RxSchedulers.from, ReactorSchedulers.from): "
        + "start() submitting the task and setting its handle, then the task running (actor 1), races "
        + "a stop request (actor 2); a task not yet run nor disposed runs later (arbiter), as its "
        + "scheduler would run it. Exactly one completion; the handle is disposed "
        + "once if the stop won after the submission, even when the stop came before the handle was "
        + "known, and never if the task ran first.")
@Outcome(id = "1, 1, 0, 1", expect = ACCEPTABLE, desc = "the task ran first: value")
@Outcome(id = "1, 3, 1, 1", expect = ACCEPTABLE, desc = "the stop won after the submission: stopped, task disposed")
@Outcome(id = "1, 3, 0, 1", expect = ACCEPTABLE, desc = "the task ran after the stop was requested: stopped")
@Outcome(id = "1, 3, 0, 0", expect = ACCEPTABLE, desc = "the stop came before start: stopped, nothing submitted")
@Outcome(id = "0, .*", expect = FORBIDDEN, desc = "no completion")
@Outcome(id = "[2-9], .*", expect = FORBIDDEN, desc = "two completions")
@Outcome(expect = FORBIDDEN, desc = "any other combination (a value with a disposed task, two disposals)")
@State
public class ScheduleOperationStartVsStop {

    final InplaceStopSource stop = new InplaceStopSource();
    final Probes.Recorder<Void> receiver = new Probes.Recorder<>(stop.token(), null);
    volatile Runnable task;
    volatile int ran;
    volatile int disposes;
    final OperationState op;

    final Disposable handle = new Disposable() {
        @Override
        public void dispose() {
            DISPOSES.getAndAdd(ScheduleOperationStartVsStop.this, 1);
        }

        @Override
        public boolean isDisposed() {
            return disposes != 0;
        }
    };

    final io.reactivex.rxjava3.core.Scheduler rx = new io.reactivex.rxjava3.core.Scheduler() {
        @Override
        public Worker createWorker() {
            throw new UnsupportedOperationException();
        }

        @Override
        public Disposable scheduleDirect(Runnable run) {
            task = run;
            return handle;
        }
    };

    {
        op = RxSchedulers.from(rx).schedule().connect(receiver);
    }

    @Actor
    public void startThenRunTheTask() {
        op.start();
        runOnce();
    }

    @Actor
    public void requestStop() {
        stop.requestStop();
    }

    private void runOnce() {
        Runnable t = task;
        if (t != null && disposes == 0 && RAN.compareAndSet(this, 0, 1)) {
            t.run();
        }
    }

    @Arbiter
    public void arbiter(IIII_Result r) {
        runOnce();
        r.r1 = receiver.completions;
        r.r2 = receiver.kind;
        r.r3 = disposes;
        r.r4 = task != null ? 1 : 0;
    }

    private static final VarHandle DISPOSES;
    private static final VarHandle RAN;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            DISPOSES = l.findVarHandle(ScheduleOperationStartVsStop.class, "disposes", int.class);
            RAN = l.findVarHandle(ScheduleOperationStartVsStop.class, "ran", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
