package dev.senders.reactor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.scope.CountingScope;
import dev.senders.scope.SpawnDecorator;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

@DisplayName("ReactorScopes.spawn under a name, and through a decorating token")
class NamedAndDecoratedSpawnTest {

    @Test
    @DisplayName("named work is listed while it runs and cancelled by its Disposable")
    void named_isListed_andDisposable() {
        CountingScope scope = new CountingScope("r");
        Disposable d = ReactorScopes.spawn(Mono.never(), scope.getToken(), "audit");
        assertEquals(List.of("audit"), scope.outstanding().stream().map(w -> w.name().orElseThrow()).toList());
        d.dispose();
        assertEquals(0, scope.count());
        scope.close();
        assertSame(ReactorScopes.REFUSED, ReactorScopes.spawn(Mono.empty(), scope.getToken(), "late"));
        assertThrows(NullPointerException.class, () -> ReactorScopes.spawn(Mono.empty(), scope.getToken(), null));
    }

    @Test
    @DisplayName("a decorating token decorates the subscription: installed around subscribe and completion, ended once")
    void decoratingToken_decoratesTheSubscription() {
        List<String> log = new CopyOnWriteArrayList<>();
        ThreadLocal<String> current = new ThreadLocal<>();
        java.util.concurrent.atomic.AtomicInteger decorated = new java.util.concurrent.atomic.AtomicInteger();
        SpawnDecorator d = (scopeName, workName) -> {
            decorated.incrementAndGet();
            return new SpawnDecorator.Decoration() {
                @Override
                public SpawnDecorator.Installed install() {
                    current.set(workName);
                    return current::remove;
                }

                @Override
                public void end(SpawnDecorator.Outcome outcome, @Nullable Throwable error) {
                    log.add("end " + workName + " " + outcome.tag());
                }
            };
        };
        CountingScope scope = new CountingScope("r");
        Sinks.One<String> sink = Sinks.one();
        ReactorScopes.spawn(sink.asMono().doOnSubscribe(s -> log.add("subscribed in " + current.get()))
                        .doOnSuccess(v -> log.add("completed in " + current.get())),
                d.token(scope.getToken(), "r"), "job");
        assertEquals(List.of("subscribed in job"), log);
        sink.tryEmitValue("x");
        assertEquals(List.of("subscribed in job", "completed in null", "end job value"), log,
                "the source's own signal runs where it runs; the end is told before the scope is");
        assertEquals(0, scope.count());
        ReactorScopes.spawn(Mono.error(new IllegalStateException("boom")), d.token(scope.getToken(), "r"));
        assertTrue(log.contains("end null error"), log.toString());
        assertEquals(1, scope.errorCount());
        assertEquals(2, decorated.get(), "decorated once per spawn (the direct-path probe decorates nothing)");
    }
}
