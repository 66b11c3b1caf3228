package dev.senders.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.senders.StopToken;
import dev.senders.scope.Scopes;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIIII_Result;

/**
 * Result: r1 = downstream completions; r2 = their kind ({@link Probes#ERROR} 2 expected); r3 = 1 if
 * the error is the spawned work's; r4 = 1 if the body's stop token fired; r5 = how the body ended
 * ({@link Probes#VALUE} 1, or {@link Probes#STOPPED} 3 if the error's stop request reached it first).
 */
@JCStressTest
@Description("letAsyncScope (P3296R3): work spawned with the scope's token fails (actor 1) while the "
        + "body completes with a value (actor 2; the body also answers a stop request by completing "
        + "stopped on the stopping thread). The first error wins and requests stop on everything "
        + "associated; the result is delivered once, after the join, whichever finishes last.")
@Outcome(id = "1, 2, 1, 1, [13]", expect = ACCEPTABLE, desc = "the spawned work's error delivered once; the body asked to stop")
@Outcome(id = "0, .*", expect = FORBIDDEN, desc = "never completed (join lost an association)")
@Outcome(id = "[2-9], .*", expect = FORBIDDEN, desc = "completed twice")
@Outcome(id = "1, [013], .*", expect = FORBIDDEN, desc = "the error lost: the body's value (or stopped) delivered instead")
@Outcome(id = "1, 2, 0, .*", expect = FORBIDDEN, desc = "an error other than the spawned work's")
@Outcome(id = "1, 2, 1, 0, .*", expect = FORBIDDEN, desc = "the body was not asked to stop")
@Outcome(expect = FORBIDDEN, desc = "any other combination")
@State
public class LetAsyncScopeSpawnErrorVsBodyValue {

    static final RuntimeException BOOM = new IllegalStateException("spawned work failed");

    final Probes.Manual<Integer> failing = new Probes.Manual<>(null, BOOM, false);
    final Probes.Manual<Integer> body = new Probes.Manual<>(1);
    final Probes.Recorder<Integer> downstream = new Probes.Recorder<>(StopToken.never(), null);

    {
        Scopes.letAsyncScope(token -> {
            Scopes.spawn(failing, token);
            return body;
        }).connect(downstream).start();
    }

    @Actor
    public void failSpawned() {
        failing.complete(Probes.ERROR);
    }

    @Actor
    public void bodyValue() {
        body.complete(Probes.VALUE);
    }

    @Arbiter
    public void arbiter(IIIII_Result r) {
        r.r1 = downstream.completions;
        r.r2 = downstream.kind;
        r.r3 = downstream.error == BOOM ? 1 : 0;
        r.r4 = body.stopRequested();
        r.r5 = body.completed;
    }
}
