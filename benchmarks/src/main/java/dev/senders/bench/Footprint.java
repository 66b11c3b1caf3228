package dev.senders.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Retained heap per outstanding operation, by GC-settled heap deltas (not a JMH benchmark:
 * retention is a state, not a rate). For each tracker: full GCs, read used heap; start
 * {@code count} tracked {@link Parking} operations that stay outstanding; full GCs, read used heap
 * again while the tracker and the work are reachable; release everything and check the tracker is
 * empty. The user's registry array is allocated before the first reading, so it is not counted.
 * "floor" is the user's own operation with no tracking object (one AtomicLong): the bytes beyond it
 * are what the tracker costs. Run with {@code -XX:+UseSerialGC} so that a full GC leaves exactly
 * the live set. Usage: {@code Footprint <count> <repeats> <out.json>}.
 */
public final class Footprint {

    private static final MemoryMXBean MEMORY = ManagementFactory.getMemoryMXBean();

    private Footprint() {
    }

    static long settledUsed() {
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 4; i++) {
            System.gc();
            used = Math.min(used, MEMORY.getHeapMemoryUsage().getUsed());
        }
        return used;
    }

    public static void main(String[] args) throws IOException {
        int count = Integer.parseInt(args[0]);
        int repeats = Integer.parseInt(args[1]);
        Path out = Path.of(args[2]);
        String[] variants = {"floor", "scope", "reactor", "rxjava"};
        List<String> rows = new ArrayList<>();
        for (String variant : variants) {
            double[] perOp = new double[repeats];
            for (int r = 0; r < repeats; r++) {
                Parking.init(count);
                Outstanding t = Outstanding.create(variant);
                long before = settledUsed();
                for (int i = 0; i < count; i++) {
                    Parking.next = i;
                    t.add();
                }
                long after = settledUsed();
                perOp[r] = (after - before) / (double) count;
                t.finish();
                Work.check(Parking.released == count, variant + " released all");
                Parking.init(0);
            }
            Arrays.sort(perOp);
            double median = perOp[repeats / 2];
            System.out.printf("%-8s %,d outstanding: %.1f B each (runs: %s)%n", variant, count, median,
                    Arrays.toString(perOp));
            rows.add(String.format("{\"variant\":\"%s\",\"outstanding\":%d,\"bytesPerOp\":%.2f,\"runs\":%s}",
                    variant, count, median, Arrays.toString(perOp)));
        }
        Files.writeString(out, "[\n" + String.join(",\n", rows) + "\n]\n", StandardCharsets.UTF_8);
    }
}
