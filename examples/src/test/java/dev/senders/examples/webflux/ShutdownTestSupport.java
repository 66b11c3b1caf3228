package dev.senders.examples.webflux;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/** HTTP and JDBC helpers shared by the shutdown tests. */
final class ShutdownTestSupport {

    /** One answer: status and body. */
    record Answer(int status, String body) {
        boolean accepted() {
            return status == 202;
        }
    }

    /**
     * {@code -Dexamples.virtualThreads=true} (the JDK 25 step, {@code scripts/task-tests-jdk25.sh}):
     * the load tests run the app with {@code spring.threads.virtual.enabled=true}.
     */
    static final boolean VIRTUAL_THREADS = Boolean.getBoolean("examples.virtualThreads");

    private ShutdownTestSupport() {
    }

    /**
     * Starts the real application on a random loopback port. Not {@code @SpringBootTest}: these
     * tests close the context themselves (that is the point), and Spring's TestContext framework
     * fails its after-test callbacks on a context closed by the test ("is not active").
     */
    static ConfigurableApplicationContext start(String... properties) {
        List<String> args = new ArrayList<>(List.of("--server.address=127.0.0.1", "--server.port=0",
                "--spring.main.banner-mode=off"));
        for (String p : properties) {
            args.add("--" + p);                                  // command-line args beat application.properties
        }
        return new SpringApplicationBuilder(AuditApplication.class, GatedAuditStore.Config.class)
                .main(AuditApplication.class)
                .run(args.toArray(String[]::new));
    }

    static int port(ConfigurableApplicationContext context) {
        return ((WebServerApplicationContext) context).getWebServer().getPort();
    }

    static WebClient client(int port) {
        return WebClient.create("http://127.0.0.1:" + port);
    }

    static Mono<Answer> placeOrder(WebClient client, String id) {
        return client.post().uri("/orders/{id}", id)
                .exchangeToMono(r -> r.bodyToMono(String.class).defaultIfEmpty("")
                        .map(body -> new Answer(r.statusCode().value(), body)));
    }

    /** Sends {@code n} orders, 32 at a time, and returns every answer. */
    static List<Answer> placeOrders(WebClient client, String prefix, int n) {
        return Flux.range(0, n)
                .flatMap(i -> placeOrder(client, prefix + i), 32)
                .collectList()
                .block(Duration.ofSeconds(30));                  // hang guard only
    }

    static long rows(String url) throws SQLException {
        try (Connection c = DriverManager.getConnection(url, "sa", ""); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM audit")) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
