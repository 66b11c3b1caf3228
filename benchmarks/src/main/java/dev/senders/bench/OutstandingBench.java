package dev.senders.bench;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Churn with a standing population of outstanding work: the tracker holds {@code outstanding}
 * started-but-unfinished operations; each benchmark operation completes one of them, chosen at
 * random (xorshift, same sequence for every variant), which removes it from the tracker, and starts
 * a new tracked one in its place. The score is the cost of one remove + one add at that population;
 * across populations (1 to 100,000) it shows whether a tracker's cost stays flat as outstanding
 * work grows. Reactor's {@code Disposables.composite()} is a {@code LinkedList}:
 * {@code remove(Object)} scans from the head (completing in start order would hide that; real
 * completions are not in order). The trackers are {@link Outstanding}'s, the stop-aware pair
 * ({@code floorStoppable}, {@code countingScope}) included: there each operation also registers on,
 * and deregisters from, the scope's stop token. At tear-down everything is released and every
 * tracker must be empty.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Thread)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class OutstandingBench {

    @Param({"1", "1000", "100000"})
    int outstanding;

    @Param({"floor", "scope", "floorStoppable", "countingScope", "reactor", "rxjava"})
    String tracker;

    Outstanding t;
    long x = 0x9E3779B97F4A7C15L;

    @Setup(Level.Trial)
    public void setUp() {
        Parking.init(outstanding);
        t = Outstanding.create(tracker);
        for (int i = 0; i < outstanding; i++) {
            Parking.next = i;
            t.add();
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        t.finish();
    }

    @Benchmark
    public int replaceOne() {
        long v = x;
        v ^= v << 13;
        v ^= v >>> 7;
        v ^= v << 17;
        x = v;
        int slot = (int) (((v >>> 32) * outstanding) >>> 32);
        Parking.release(slot);
        Parking.next = slot;
        t.add();
        return slot;
    }
}
