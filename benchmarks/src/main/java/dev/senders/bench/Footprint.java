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
import java.util.Locale;

/**
 * Retained heap per outstanding operation, by GC-settled heap deltas (not a JMH benchmark:
 * retention is a state, not a rate). For each tracker: full GCs, read used heap; start
 * {@code count} tracked {@link Parking} operations that stay outstanding; full GCs, read used heap
 * again while the tracker and the work are reachable; release everything and check the tracker is
 * empty. The user's registry array is allocated before the first reading, so it is not counted.
 * "floor" is the user's own operation with no tracking object (one AtomicLong): the bytes beyond it
 * are what the tracker costs; "floorStoppable" is the floor of the stop-aware "countingScope" (see
 * {@link Outstanding}). Run with {@code -XX:+UseSerialGC} so that a full GC leaves exactly the
 * live set.
 *
 * <p>The same run under a small heap ({@code -Xmx64m}) answers whether {@code count} outstanding
 * operations fit in it: a variant that runs out of memory is reported with {@code "fits": false}
 * and the number of operations it had started (that work is then released, and the next variant
 * runs), instead of ending the program.
 *
 * <p>Usage: {@code Footprint <count> <repeats> <out.json> [variant,...]} (default: every variant).
 * Each JSON row: variant, outstanding, bytesPerOp (median of the repeats), runs, fits, started,
 * maxHeap (bytes).
 */
public final class Footprint {

    static final String[] VARIANTS = {"floor", "scope", "floorStoppable", "countingScope", "reactor", "rxjava"};

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
        String[] variants = args.length > 3 ? args[3].split(",") : VARIANTS;
        long maxHeap = Runtime.getRuntime().maxMemory();
        List<String> rows = new ArrayList<>();
        for (String variant : variants) {
            double[] perOp = new double[repeats];
            int started = count;
            for (int r = 0; r < repeats && started == count; r++) {
                Parking.init(count);
                Outstanding t = Outstanding.create(variant);
                long before = settledUsed();
                int i = 0;
                try {
                    for (; i < count; i++) {
                        Parking.next = i;
                        t.add();
                    }
                } catch (OutOfMemoryError e) {
                    started = i;
                }
                if (started < count) {
                    // out of memory: release the work started so far and go on with the next
                    // variant. Not t.finish(): where the error struck (inside the spawn that failed)
                    // decides whether that one operation ever started, so the tracker need not end
                    // empty.
                    Parking.releaseAll();
                    Parking.init(0);
                    break;
                }
                long after = settledUsed();
                perOp[r] = (after - before) / (double) count;
                t.finish();
                Work.check(Parking.released == count, variant + " released all");
                Parking.init(0);
            }
            boolean fits = started == count;
            Arrays.sort(perOp);
            double median = fits ? perOp[repeats / 2] : Double.NaN;
            if (fits) {
                System.out.printf("%-14s %,d outstanding: %.1f B each (runs: %s)%n", variant, count, median,
                        Arrays.toString(perOp));
            } else {
                System.out.printf("%-14s out of memory after %,d of %,d outstanding (max heap %,d B)%n", variant,
                        started, count, maxHeap);
            }
            rows.add(String.format(Locale.ROOT, "{\"variant\":\"%s\",\"outstanding\":%d,\"bytesPerOp\":%s,\"runs\":%s,"
                    + "\"fits\":%b,\"started\":%d,\"maxHeap\":%d}",
                    variant, count, fits ? String.format(Locale.ROOT, "%.2f", median) : "null",
                    fits ? Arrays.toString(perOp) : "[]", fits, started, maxHeap));
        }
        Files.writeString(out, "[\n" + String.join(",\n", rows) + "\n]\n", StandardCharsets.UTF_8);
    }
}
