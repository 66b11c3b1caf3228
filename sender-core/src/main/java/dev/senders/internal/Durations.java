package dev.senders.internal;

import java.time.Duration;
import org.jspecify.annotations.Nullable;

/** Human-readable durations for messages and reports ("250 ms", "5 s", "1.5 s", "3 min"). Not public API. */
public final class Durations {

    private Durations() {}

    /** {@code d} in nanoseconds, saturated to {@code Long.MIN_VALUE}/{@code Long.MAX_VALUE} instead of overflowing. */
    public static long saturatedNanos(Duration d) {
        try {
            return d.toNanos();
        } catch (ArithmeticException tooLong) {
            return d.isNegative() ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
    }

    public static String format(Duration d) {
        return format(d.toNanos());
    }

    public static String format(long nanos) {
        if (nanos < 0) {
            return "-" + format(-nanos);
        }
        if (nanos < 1_000_000L) {
            return nanos < 1_000L ? nanos + " ns" : trim(nanos / 1e3) + " µs";
        }
        if (nanos < 1_000_000_000L) {
            return trim(nanos / 1e6) + " ms";
        }
        if (nanos < 60_000_000_000L) {
            return trim(nanos / 1e9) + " s";
        }
        return trim(nanos / 60e9) + " min";
    }

    private static String trim(double v) {
        String s = v >= 100 ? String.valueOf(Math.round(v)) : String.format(java.util.Locale.ROOT, "%.1f", v);
        return s.endsWith(".0") ? s.substring(0, s.length() - 2) : s;
    }
}
