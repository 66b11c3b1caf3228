package dev.senders.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import dev.senders.Hooks;
import dev.senders.ProtocolViolationException;
import dev.senders.Sender;
import dev.senders.Senders;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A broken sender completes with a value and then with an error: whichever operation guards the
 * completion reports the violation, and the extra error travels with it (as a suppressed
 * exception) instead of being dropped.
 */
@DisplayName("An error delivered after the first completion is reported with the violation, never lost")
class ExtraCompletionErrorTest {

    private final List<Throwable> dropped = new CopyOnWriteArrayList<>();
    private final IllegalStateException late = new IllegalStateException("second completion");
    private final Sender<Integer> twice = r -> () -> {
        r.setValue(1);
        r.setError(late);
    };

    @BeforeEach
    void captureDropped() {
        Hooks.setOnErrorDropped(dropped::add);
    }

    @AfterEach
    void resetHooks() {
        Hooks.resetOnErrorDropped();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"syncWait", "then", "timeout"})
    void extraErrorTravelsWithTheViolation(String guard) {
        Function<Sender<Integer>, Sender<Integer>> wrap = switch (guard) {
            case "then" -> s -> s.then(v -> v);
            case "timeout" -> s -> s.timeout(Duration.ofMinutes(1));
            default -> s -> s;
        };
        assertEquals(1, Senders.syncWait(wrap.apply(twice)));
        assertEquals(1, dropped.size(), dropped.toString());
        assertInstanceOf(ProtocolViolationException.class, dropped.get(0));
        assertEquals(List.of(late), List.of(dropped.get(0).getSuppressed()));
    }
}
