package dev.senders.test.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.testkit.engine.EventConditions.event;
import static org.junit.platform.testkit.engine.EventConditions.finishedSuccessfully;
import static org.junit.platform.testkit.engine.EventConditions.finishedWithFailure;
import static org.junit.platform.testkit.engine.EventConditions.test;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.message;

import dev.senders.test.fixtures.SpringFixtures;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;

/** The listener's verdicts on Spring tests, observed as JUnit reports them (EngineTestKit runs the fixtures). */
class SendersTestExecutionListenerTest {

    private static Events run(Class<?> fixture) {
        return EngineTestKit.engine("junit-jupiter").selectors(selectClass(fixture)).execute().testEvents();
    }

    @Test
    void aTestWhoseSpawnedWorkFailedFailsNamingTheWorkAndTheNextTestPasses() {
        Events events = run(SpringFixtures.WorkFails.class);
        events.assertStatistics(s -> s.started(2).failed(1).succeeded(1).aborted(0));
        events.assertThatEvents().haveExactly(1, event(test("a_spawnsWorkThatFails"),
                finishedWithFailure(message(m -> m.contains("work spawned during the test failed")
                        && m.contains("work 'audit-7'") && m.contains("audit store down")))));
        events.assertThatEvents().haveExactly(1, event(test("b_spawnsWorkThatSucceeds"), finishedSuccessfully()));
        Throwable failure = events.failed().stream().findFirst().orElseThrow()
                .getRequiredPayload(TestExecutionResult.class).getThrowable().orElseThrow();
        assertEquals(1, failure.getSuppressed().length);
    }

    @Test
    void aTestWhoseWorkStillRunsAtTheIdleTimeoutFailsListingItAndSayingItWasStopped() {
        Events events = run(SpringFixtures.WorkStillRuns.class);
        events.assertStatistics(s -> s.started(1).failed(1));
        events.assertThatEvents().haveExactly(1, event(test("spawnsSlowWork"),
                finishedWithFailure(message(m -> m.contains("was still running 200 ms after it ended") && m.contains("audit-slow")
                        && m.contains("Stop was requested on the scope, and all its work then ended within 1 s")
                        && m.contains("the next test starts with a fresh one")))));
    }

    @Test
    void workLeftRunningByTheFirstTestFailsThatTestOnlyAndTheLaterTestsOfTheClassPass() {
        Events events = run(SpringFixtures.FirstTestLeavesWorkRunning.class);
        events.assertThatEvents().haveExactly(1, event(test("a_leavesWorkRunning"),
                finishedWithFailure(message(m -> m.contains("audit-left-behind") && m.contains("was still running 300 ms")))));
        events.assertThatEvents().haveExactly(1, event(test("b_spawnsAndWaits"), finishedSuccessfully()));
        events.assertThatEvents().haveExactly(1, event(test("c_spawnsAndWaits"), finishedSuccessfully()));
        events.assertThatEvents().haveExactly(1, event(test("d_spawnsAndReturns"), finishedSuccessfully()));
        events.assertStatistics(s -> s.started(4).failed(1).succeeded(3));
        String message = failureOf(events).getMessage();
        assertEquals(1, occurrences(message, "audit-left-behind ("), message);
    }

    @Test
    void aSpawnSiteShowsTheCallersFramesNotReactorsUnlessFullSitesAreAskedFor() {
        String trimmed = failureOf(run(SpringFixtures.WorkStillRuns.class)).getMessage();
        assertTrue(trimmed.contains("at dev.senders.test.spring.AuditApp"), trimmed);
        assertFalse(trimmed.contains("at reactor."), trimmed);
        assertTrue(trimmed.contains(" more"), trimmed);
        String full;
        System.setProperty("senders.test.full-spawn-sites", "true");
        try {
            full = failureOf(run(SpringFixtures.WorkStillRuns.class)).getMessage();
        } finally {
            System.clearProperty("senders.test.full-spawn-sites");
        }
        assertTrue(full.contains("at reactor."), full);
    }

    private static Throwable failureOf(Events events) {
        return events.failed().stream().findFirst().orElseThrow()
                .getRequiredPayload(TestExecutionResult.class).getThrowable().orElseThrow();
    }

    private static int occurrences(String text, String part) {
        int n = 0;
        for (int i = text.indexOf(part); i >= 0; i = text.indexOf(part, i + 1)) {
            n++;
        }
        return n;
    }

    @Test
    void aTestDuringWhichAnAsyncVoidMethodThrowsFailsWithThatException_andTheScopeCountsItFailed() {
        Events events = run(SpringFixtures.AsyncVoidMethodThrows.class);
        events.assertThatEvents().haveExactly(1, event(test("a_callsAnAsyncMethodThatThrows"),
                finishedWithFailure(message(m -> m.contains("work 'Auditor#audit'") && m.contains("audit store down for 11")))));
        events.assertThatEvents().haveExactly(1, event(test("b_theFailureWasCountedAsFailed"), finishedSuccessfully()));
        Throwable failure = failureOf(events);
        assertEquals(1, failure.getSuppressed().length);
        assertEquals("audit store down for 11", failure.getSuppressed()[0].getMessage());
    }

    @Test
    void aTestClassCanOptOut() {
        Events events = run(SpringFixtures.OptedOut.class);
        events.assertStatistics(s -> s.started(1).succeeded(1));
        assertTrue(events.failed().count() == 0);
    }
}
