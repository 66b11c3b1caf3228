package dev.senders.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.RepeatedTest;

class DemoTest {

    @RepeatedTest(3)
    @DisplayName("the main job: spawned = completed + stopped + errors, refused work never ran, scope joined")
    void demo_losesNothing() {
        int lost = assertTimeoutPreemptively(Duration.ofSeconds(30), () -> new Demo().run());   // hang guard only
        assertEquals(0, lost);
    }
}
