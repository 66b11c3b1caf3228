package smoke;

import dev.senders.Senders;
import dev.senders.scope.ScopeState;
import dev.senders.spring.boot.ReactorScopeSpawner;
import dev.senders.spring.boot.ScopeSpawner;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The starter on the module path: run by {@code module-path-smoke.sh} with the starter, the
 * senders modules and Spring Boot's jars on the module path and this class on the class path.
 * Spring must create the auto-configured beans of the named module {@code dev.senders.spring.boot}
 * (its package-private {@code @Bean} methods: {@code opens ... to spring.core, ...}), spawn into
 * the scope and join it on close. Prints {@code SMOKE OK} or {@code SMOKE FAILED}.
 */
@EnableAutoConfiguration
public class Smoke {
    public static void main(String[] args) {
        ConfigurableApplicationContext ctx = new SpringApplicationBuilder(Smoke.class)
                .web(WebApplicationType.NONE).run("--spring.main.banner-mode=off", "--senders.scope.name=smoke");
        ScopeSpawner spawner = ctx.getBean(ScopeSpawner.class);
        AtomicBoolean done = new AtomicBoolean();
        spawner.spawn(Senders.fromCompletionStage(() -> CompletableFuture.runAsync(() -> done.set(true),
                CompletableFuture.delayedExecutor(300, TimeUnit.MILLISECONDS))));
        ctx.getBean(ReactorScopeSpawner.class).spawn(reactor.core.publisher.Mono.just(1));
        boolean named = ScopeSpawner.class.getModule().isNamed();
        ctx.close();
        boolean ok = named && done.get() && spawner.scope().state() == ScopeState.JOINED;
        System.out.println("SMOKE " + (ok ? "OK " : "FAILED ") + ScopeSpawner.class.getModule() + ": " + spawner.report());
        System.exit(ok ? 0 : 1);
    }
}
