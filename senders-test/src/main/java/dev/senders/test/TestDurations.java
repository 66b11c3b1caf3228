package dev.senders.test;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Durations in the settings and messages of the test support: "5s", "500 ms", "2m", "PT5S". */
final class TestDurations {

    private static final Pattern SIMPLE = Pattern.compile("(\\d+)\\s*(ns|us|ms|s|m|h|d)");

    private TestDurations() {}

    /**
     * Parses {@code text} as the value of the setting {@code setting}.
     *
     * @throws IllegalArgumentException naming the setting and the accepted forms
     */
    static Duration parse(String setting, String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        Matcher m = SIMPLE.matcher(t);
        if (m.matches()) {
            long n = Long.parseLong(m.group(1));
            switch (m.group(2)) {
                case "ns": return Duration.ofNanos(n);
                case "us": return Duration.ofNanos(n * 1_000L);
                case "ms": return Duration.ofMillis(n);
                case "s": return Duration.ofSeconds(n);
                case "m": return Duration.ofMinutes(n);
                case "h": return Duration.ofHours(n);
                default: return Duration.ofDays(n);
            }
        }
        try {
            return Duration.parse(text.trim());
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("'" + setting + "' is '" + text
                    + "', which is not a duration: write a number and a unit (\"5s\", \"500ms\", \"2m\") or an ISO-8601 duration (\"PT5S\")", e);
        }
    }

    static String format(Duration d) {
        return dev.senders.internal.Durations.format(d);
    }
}
