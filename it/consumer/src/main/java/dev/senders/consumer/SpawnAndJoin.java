package dev.senders.consumer;

import dev.senders.reactor.ReactorScopes;
import dev.senders.reactor.ReactorSenders;
import dev.senders.scope.CountingScope;
import java.util.concurrent.atomic.AtomicInteger;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

public class SpawnAndJoin {
    public static void main(String[] args) {
        CountingScope scope = new CountingScope(error -> System.err.println("failed: " + error));
        AtomicInteger audited = new AtomicInteger();

        for (int i = 0; i < 10; i++) {
            Mono<Void> audit = Mono.fromRunnable(audited::incrementAndGet)
                    .subscribeOn(Schedulers.boundedElastic()).then();
            ReactorScopes.spawn(audit, scope.getToken());  // fire and forget, but joined
        }

        scope.close();                                     // refuse new work
        ReactorSenders.toMono(scope.join()).block();       // returns once all ten audits ended
        System.out.println("joined: " + audited.get() + " of 10 audits ran");
    }
}
