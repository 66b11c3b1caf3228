package dev.senders.test.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
    void aTestWhoseWorkStillRunsAtTheIdleTimeoutFailsListingIt() {
        Events events = run(SpringFixtures.WorkStillRuns.class);
        events.assertStatistics(s -> s.started(1).failed(1));
        events.assertThatEvents().haveExactly(1, event(test("spawnsSlowWork"),
                finishedWithFailure(message(m -> m.contains("still runs 200 ms after it ended") && m.contains("audit-slow")
                        && m.contains("which stays open")))));
    }

    @Test
    void aTestClassCanOptOut() {
        Events events = run(SpringFixtures.OptedOut.class);
        events.assertStatistics(s -> s.started(1).succeeded(1));
        assertTrue(events.failed().count() == 0);
    }
}
