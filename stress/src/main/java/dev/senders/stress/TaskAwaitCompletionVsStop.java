package dev.senders.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.senders.InplaceStopSource;
import dev.senders.task.Task;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * Result: r1 = the task receiver's completions; r2 = its kind ({@link Probes#VALUE} 1,
 * {@link Probes#STOPPED} 3); r3 = how the awaited sender completed (0 never connected,
 * {@link Probes#VALUE} 1, {@link Probes#STOPPED} 3).
 */
@JCStressTest
@Description("Task await: the body (on a pool thread) awaits a sender; actor 1 completes that sender "
        + "with a value while actor 2 requests stop on the task, which reaches the awaited sender (it "
        + "answers stop by completing stopped) or, before the body began, completes the task stopped. "
        + "The await's word (STARTED, CLAIMED, COMPLETED, PARKED) and the task's phase decide: exactly "
        + "one completion, the value only if the awaited sender delivered it, no lost wake-up of the "
        + "parked body.")
@Outcome(id = "1, 1, 1", expect = ACCEPTABLE, desc = "the value won the awaited sender: the task returns it")
@Outcome(id = "1, 3, 3", expect = ACCEPTABLE, desc = "the stop won the awaited sender: the task completes stopped")
@Outcome(id = "1, 3, 0", expect = ACCEPTABLE, desc = "the stop came before the body began: it never ran")
@Outcome(id = "0, .*", expect = FORBIDDEN, desc = "the task never completed (a lost wake-up)")
@Outcome(id = "[2-9], .*", expect = FORBIDDEN, desc = "the task completed twice")
@Outcome(expect = FORBIDDEN, desc = "the task's outcome contradicts the awaited sender's")
@State
public class TaskAwaitCompletionVsStop {

    static final ExecutorService BODIES = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "task-body");
        t.setDaemon(true);
        return t;
    });

    final Probes.Manual<Integer> awaited = new Probes.Manual<>(42);
    final InplaceStopSource stop = new InplaceStopSource();
    final Probes.Recorder<Integer> taskReceiver = new Probes.Recorder<>(stop.token(), null);

    {
        Task.of(BODIES, ctx -> ctx.await(awaited)).connect(taskReceiver).start();
    }

    @Actor
    public void completeTheAwaitedSender() {
        // bounded: the body starts the sender soon, or the stop completed the task without it
        while (awaited.started == 0 && taskReceiver.kind == Probes.NONE) {
            Thread.onSpinWait();
        }
        if (awaited.started != 0) {
            awaited.complete(Probes.VALUE);
        }
    }

    @Actor
    public void stopTheTask() {
        stop.requestStop();
    }

    @Arbiter
    public void arbiter(III_Result r) {
        while (taskReceiver.kind == Probes.NONE) { // the body finishes on its own thread; kind is written last
            Thread.onSpinWait();
        }
        r.r1 = taskReceiver.completions;
        r.r2 = taskReceiver.kind;
        r.r3 = awaited.completed;
    }
}
