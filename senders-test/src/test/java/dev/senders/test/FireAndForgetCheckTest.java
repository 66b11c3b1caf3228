package dev.senders.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import dev.senders.scope.FireAndForgetTracker;
import dev.senders.test.fixtures.FireAndForgetFixtures;
import org.junit.jupiter.api.Test;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;

/** A test that leaves a fire-and-forget subscription running fails, naming the line; the opt-out passes. */
class FireAndForgetCheckTest {

    private static Events run(Class<?> fixture) {
        return EngineTestKit.engine("junit-jupiter").selectors(selectClass(fixture)).execute().testEvents();
    }

    private static Throwable failureOf(Events events) {
        return events.failed().stream().findFirst().orElseThrow()
                .getRequiredPayload(org.junit.platform.engine.TestExecutionResult.class).getThrowable().orElseThrow();
    }

    @Test
    void aTestThatLeavesMonoSubscribeRunningFailsNamingTheLine() {
        Events events = run(FireAndForgetFixtures.LeavesMonoSubscribeRunning.class);
        events.assertStatistics(s -> s.started(1).failed(1).succeeded(0));
        assertThat(failureOf(events)).isInstanceOf(AssertionError.class)
                .hasMessageContaining("left 1 fire-and-forget subscription(s) running")
                .hasMessageContaining("Mono.subscribe at " + FireAndForgetFixtures.LeavesMonoSubscribeRunning.class.getName()
                        + ".subscribesAndReturns(FireAndForgetFixtures.java:20)")
                .hasMessageContaining("@AllowFireAndForget");
        assertThat(FireAndForgetTracker.installed()).as("the check removed the hook it installed").isEmpty();
    }

    @Test
    void anRxJavaSubscriptionLeftRunningFailsToo() {
        Events events = run(FireAndForgetFixtures.LeavesObservableSubscribeRunning.class);
        events.assertStatistics(s -> s.started(1).failed(1));
        assertThat(failureOf(events)).hasMessageContaining("Observable.subscribe at "
                + FireAndForgetFixtures.LeavesObservableSubscribeRunning.class.getName() + ".subscribesAndReturns(");
    }

    @Test
    void theOptOutOnTheMethodOrTheClassPasses() {
        run(FireAndForgetFixtures.AllowedOnTheMethod.class).assertStatistics(s -> s.started(1).succeeded(1).failed(0));
        run(FireAndForgetFixtures.AllowedOnTheClass.class).assertStatistics(s -> s.started(1).succeeded(1).failed(0));
    }

    @Test
    void aTestThatDisposesOrEndsWhatItSubscribedPasses() {
        run(FireAndForgetFixtures.DisposesWhatItSubscribed.class).assertStatistics(s -> s.started(1).succeeded(1).failed(0));
    }
}
