package dev.senders.test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.testkit.engine.EventConditions.event;
import static org.junit.platform.testkit.engine.EventConditions.finishedSuccessfully;
import static org.junit.platform.testkit.engine.EventConditions.finishedWithFailure;
import static org.junit.platform.testkit.engine.EventConditions.test;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.instanceOf;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.message;

import dev.senders.Hooks;
import dev.senders.test.fixtures.ExtensionFixtures;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;

/** The extension's verdicts, observed as JUnit reports them (EngineTestKit runs the fixtures). */
class SendersExtensionTest {

    private static Events run(Class<?> fixture) {
        return run(fixture, Map.of());
    }

    private static Events run(Class<?> fixture, Map<String, String> parameters) {
        return EngineTestKit.engine("junit-jupiter").selectors(selectClass(fixture)).configurationParameters(parameters)
                .execute().testEvents();
    }

    private static Throwable failureOf(Events events) {
        return events.failed().stream().findFirst().orElseThrow()
                .getRequiredPayload(org.junit.platform.engine.TestExecutionResult.class).getThrowable().orElseThrow();
    }

    @Test
    void aTestThatLeavesWorkRunningFailsNamingTheWork() {
        Events events = run(ExtensionFixtures.LeavesWorkRunning.class);
        events.assertStatistics(s -> s.started(1).failed(1).aborted(0).succeeded(0));
        events.assertThatEvents().haveExactly(1, event(test("spawnsAndReturns"), finishedWithFailure(instanceOf(AssertionError.class),
                message(m -> m.contains("audit-that-never-ends") && m.contains("was still running 200 ms after it ended")
                        && m.contains("Stop was requested on the scope, and all its work then ended within 1 s")
                        && m.contains("scope 'LeavesWorkRunning.spawnsAndReturns'")))));
        // debug capture was on: the spawn site is listed
        assertTrue(failureOf(events).getMessage().contains("at dev.senders.test.fixtures.ExtensionFixtures$LeavesWorkRunning.spawnsAndReturns"),
                failureOf(events).getMessage());
    }

    @Test
    void workThatIgnoresTheStopRequestIsReportedAsStillRunningAndAbandoned() {
        Events events = run(ExtensionFixtures.WorkIgnoresStop.class);
        events.assertStatistics(s -> s.started(1).failed(1));
        String m = failureOf(events).getMessage();
        assertTrue(m.contains("deaf-poller") && m.contains("1 s later this work still runs and is abandoned"), m);
        assertTrue(!m.contains("all its work then ended"), m);
    }

    @Test
    void workOfASimpleCountingScopeIsReportedAsLeftRunningNotAsStopped() {
        Events events = run(ExtensionFixtures.SimpleScopeLeavesWorkRunning.class);
        events.assertStatistics(s -> s.started(1).failed(1));
        String m = failureOf(events).getMessage();
        assertTrue(m.contains("mail-retry") && m.contains("A SimpleCountingScope cannot stop its work: it was left running"), m);
        assertTrue(!m.contains("Stop was requested"), m);
    }

    @Test
    void aTestWhoseSpawnedWorkFailsAfterItReturnedFailsWithTheErrorAttached() {
        Events events = run(ExtensionFixtures.WorkFailsAfterReturn.class);
        events.assertStatistics(s -> s.started(1).failed(1).aborted(0));
        Throwable failure = failureOf(events);
        assertTrue(failure.getMessage().contains("work spawned during the test failed"), failure.getMessage());
        List<Throwable> suppressed = Arrays.asList(failure.getSuppressed());
        assertEquals(1, suppressed.size(), suppressed.toString());
        assertTrue(hasCause(suppressed.get(0), "audit store down"), suppressed.toString());
    }

    @Test
    void aSimpleCountingScopeParameterIsCheckedToo() {
        Events events = run(ExtensionFixtures.SimpleScopeWorkFails.class);
        events.assertStatistics(s -> s.started(1).failed(1).aborted(0));
        assertTrue(hasCause(failureOf(events).getSuppressed()[0], "mailer down"));
    }

    @Test
    void anErrorDroppedDuringTheTestFailsItAndStillReachesThePreviousHandler() {
        List<Throwable> seen = new CopyOnWriteArrayList<>();
        Consumer<? super Throwable> before = Hooks.getOnErrorDropped();
        Hooks.setOnErrorDropped(seen::add);
        try {
            Events events = run(ExtensionFixtures.DropsAnError.class);
            events.assertStatistics(s -> s.started(1).failed(1));
            assertEquals("nobody took this", failureOf(events).getSuppressed()[0].getMessage());
            assertEquals(1, seen.size(), "forwarded to the handler installed before");
            assertTrue(Hooks.getOnErrorDropped() != null && !seen.isEmpty());
        } finally {
            Hooks.setOnErrorDropped(before);
        }
    }

    @Test
    void theHooksArePutBackAfterTheTest() {
        Consumer<Throwable> mine = e -> { };
        Consumer<? super Throwable> before = Hooks.getOnErrorDropped();
        boolean debugBefore = Hooks.isDebugCaptureEnabled();
        Hooks.setOnErrorDropped(mine);
        Hooks.disableDebugCapture();
        try {
            run(ExtensionFixtures.Clean.class);
            assertTrue(Hooks.getOnErrorDropped() == mine, "the dropped-error handler is put back");
            assertTrue(!Hooks.isDebugCaptureEnabled(), "debug capture is off again");
        } finally {
            Hooks.setOnErrorDropped(before);
            if (debugBefore) {
                Hooks.enableDebugCapture();
            }
        }
    }

    @Test
    void aCleanTestPassesAfterItsWorkFinished() {
        ExtensionFixtures.Clean.ran = false;
        Events events = run(ExtensionFixtures.Clean.class);
        events.assertStatistics(s -> s.started(1).succeeded(1).failed(0));
        events.assertThatEvents().haveExactly(1, event(test("spawnedWorkCompletes"), finishedSuccessfully()));
        assertTrue(ExtensionFixtures.Clean.ran, "the extension waited for the work (it completes 50 ms after the test)");
    }

    @Test
    void oneScopePerTestNamedAfterIt() {
        ExtensionFixtures.SameScopeInBeforeEachAndTest.same = false;
        run(ExtensionFixtures.SameScopeInBeforeEachAndTest.class).assertStatistics(s -> s.succeeded(1));
        assertTrue(ExtensionFixtures.SameScopeInBeforeEachAndTest.same);
    }

    @Test
    void theClassAnnotationWinsOverTheConfigurationParameter() {
        Events events = run(ExtensionFixtures.LeavesWorkRunning.class, Map.of(SendersExtension.JOIN_TIMEOUT_PARAMETER, "1s"));
        assertTrue(failureOf(events).getMessage().contains("was still running 200 ms after"), failureOf(events).getMessage());
    }

    @Test
    void theConfigurationParameterSetsTheDeadlineAndAMethodAnnotationWinsOverIt() {
        Events events = run(ExtensionFixtures.LeavesWorkRunningWithoutAnnotation.class,
                Map.of(SendersExtension.JOIN_TIMEOUT_PARAMETER, "100ms"));
        events.assertStatistics(s -> s.started(2).failed(2));
        events.assertThatEvents().haveExactly(1, event(test("spawnsAndReturns"),
                finishedWithFailure(message(m -> m.contains("poller") && m.contains("was still running 100 ms after")))));
        events.assertThatEvents().haveExactly(1, event(test("withMethodAnnotation"),
                finishedWithFailure(message(m -> m.contains("poller") && m.contains("was still running 50 ms after")))));
    }

    @Test
    void aMalformedDeadlineParameterNamesTheParameter() {
        Events events = run(ExtensionFixtures.Clean.class, Map.of(SendersExtension.JOIN_TIMEOUT_PARAMETER, "soon"));
        events.assertStatistics(s -> s.failed(1));
        assertTrue(failureOf(events).getMessage().contains("'senders.test.join-timeout' is 'soon'"), failureOf(events).getMessage());
    }

    private static boolean hasCause(Throwable t, String message) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (message.equals(c.getMessage())) {
                return true;
            }
        }
        return false;
    }
}
