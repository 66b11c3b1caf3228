package dev.senders.consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.senders.Senders;
import dev.senders.reactor.ReactorScopes;
import dev.senders.scope.CountingScope;
import dev.senders.test.SendersExtension;
import dev.senders.test.TestReceiver;
import dev.senders.test.VirtualTime;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

@ExtendWith(SendersExtension.class)
class AuditsTest {

    @Test
    void everyAuditRunsBeforeTheTestEnds(CountingScope scope) {
        AtomicInteger audited = new AtomicInteger();
        for (int i = 0; i < 10; i++) {
            Mono<Void> audit = Mono.fromRunnable(audited::incrementAndGet)
                    .subscribeOn(Schedulers.boundedElastic()).then();
            ReactorScopes.spawn(audit, scope.getToken());
        }
        scope.close();
        Senders.syncWait(scope.join());
        assertEquals(10, audited.get());
    }

    @Test
    void aThirtySecondTimeoutUnderVirtualTime(VirtualTime time) {
        TestReceiver<Void> r = TestReceiver.start(
                Senders.fromCompletionStage(new CompletableFuture<Void>()).timeout(Duration.ofSeconds(30)));
        time.advanceBy(Duration.ofSeconds(30));
        r.assertError(TimeoutException.class);
    }
}
