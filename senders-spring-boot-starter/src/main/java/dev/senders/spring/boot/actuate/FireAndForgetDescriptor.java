package dev.senders.spring.boot.actuate;

import dev.senders.scope.CountingScope;
import dev.senders.scope.FireAndForgetTracker;
import dev.senders.scope.OutstandingWork;
import java.util.ArrayList;
import java.util.List;

/**
 * The fire-and-forget subscriptions of one adapter's hooks for the scope, as the {@code senders}
 * endpoint lists them ({@code fireAndForget}; empty when {@code senders.scope.fire-and-forget=off}).
 *
 * @param adapter    {@code Reactor} or {@code RxJava}
 * @param mode       {@code REPORT} or {@code TRACK}
 * @param found      found since startup
 * @param active     running now
 * @param untracked  found in {@code TRACK} after the scope closed
 * @param running    the oldest running ones, at most the endpoint's limit
 */
public record FireAndForgetDescriptor(String adapter, String mode, long found, int active, long untracked,
        List<Subscription> running) {

    /**
     * One running subscription.
     *
     * @param site  where it was subscribed (or the class of its callback, without site capture)
     * @param kind  what was subscribed, e.g. {@code Mono.subscribe}
     * @param age   how long it has been running (ISO-8601)
     */
    public record Subscription(String site, String kind, String age) {
    }

    /**
     * The descriptors of the trackers installed for {@code scope}.
     *
     * @param scope the application scope
     * @param limit the most running subscriptions to list per tracker
     * @return one per installed tracker of {@code scope}
     */
    static List<FireAndForgetDescriptor> of(CountingScope scope, int limit) {
        List<FireAndForgetDescriptor> out = new ArrayList<>();
        for (FireAndForgetTracker t : FireAndForgetTracker.installed()) {
            if (t.scope() != scope) {
                continue;
            }
            List<Subscription> running = new ArrayList<>();
            for (OutstandingWork w : t.running()) {
                if (running.size() == limit) {
                    break;
                }
                running.add(new Subscription(w.name().orElse("?"), w.kind(), w.age().toString()));
            }
            out.add(new FireAndForgetDescriptor(t.adapter(), t.mode().name(), t.foundCount(), t.activeCount(),
                    t.untrackedCount(), running));
        }
        return out;
    }
}
