package example.subscriptions;

import static org.assertj.core.api.Assertions.assertThat;

import dev.senders.scope.FireAndForgetTracker;
import dev.senders.spring.boot.FireAndForgetHooks;
import dev.senders.spring.boot.ScopeShutdown;
import dev.senders.spring.boot.autoconfigure.SendersFireAndForgetAutoConfiguration;
import dev.senders.spring.boot.autoconfigure.SendersReactorAutoConfiguration;
import dev.senders.spring.boot.autoconfigure.SendersScopeAutoConfiguration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import reactor.core.publisher.Sinks;

/**
 * A subscription made after the scope's shutdown ended, before the context is destroyed (a request
 * the web server still handles on a connection it kept open), is found, runs untracked and is
 * counted: never refused, never lost from the report. The hooks stay until the context's
 * destruction, which logs the report again when such subscriptions were found after it.
 */
@ExtendWith(OutputCaptureExtension.class)
class FireAndForgetAfterShutdownTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(SendersScopeAutoConfiguration.class,
                    SendersReactorAutoConfiguration.class, SendersFireAndForgetAutoConfiguration.class));

    @Test
    void aSubscriptionAfterTheScopesShutdown_isFoundRunsUntrackedAndIsReportedAtTheContextsDestruction(
            CapturedOutput out) {
        AtomicReference<FireAndForgetTracker> trackerAfterClose = new AtomicReference<>();
        Sinks.Empty<Void> late = Sinks.empty();
        runner.withPropertyValues("senders.scope.fire-and-forget=track").run(context -> {
            FireAndForgetTracker tracker = context.getBean(FireAndForgetHooks.class).trackers().get(0);
            context.getBean(ScopeShutdown.class).shutdown().toCompletableFuture().get(10, TimeUnit.SECONDS);
            assertThat(out.getOut()).contains("(Reactor, TRACK, scope 'application'): 0 found");

            boolean[] completed = {false};
            late.asMono().subscribe(v -> { }, e -> { }, () -> completed[0] = true);

            assertThat(FireAndForgetTracker.installed()).as("the hooks outlive the scope's shutdown").contains(tracker);
            assertThat(tracker.foundCount()).as("found").isEqualTo(1);
            assertThat(tracker.untrackedCount()).as("counted as untracked: the scope is closed").isEqualTo(1);
            assertThat(tracker.scope().count()).as("not associated with the closed scope").isZero();
            late.tryEmitEmpty();
            assertThat(completed[0]).as("runs as it would without the hooks").isTrue();
            trackerAfterClose.set(tracker);
        });
        assertThat(FireAndForgetTracker.installed()).as("removed at the context's destruction")
                .doesNotContain(trackerAfterClose.get());
        assertThat(out.getOut()).as("the report, again, at the context's destruction")
                .contains("1 more found after the shutdown's report, as the context closes: fire-and-forget subscriptions"
                        + " (Reactor, TRACK, scope 'application'): 1 found, 0 still running, 1 untracked (scope closed)");
    }

    @Test
    void noSubscriptionAfterTheScopesShutdown_theReportIsLoggedOnce(CapturedOutput out) {
        runner.withPropertyValues("senders.scope.fire-and-forget=report").run(context ->
                context.getBean(ScopeShutdown.class).shutdown().toCompletableFuture().get(10, TimeUnit.SECONDS));
        String line = "(Reactor, REPORT, scope 'application'): 0 found";
        assertThat(out.getOut().indexOf(line)).as("logged").isNotNegative();
        assertThat(out.getOut().indexOf(line)).as("once").isEqualTo(out.getOut().lastIndexOf(line));
    }
}
