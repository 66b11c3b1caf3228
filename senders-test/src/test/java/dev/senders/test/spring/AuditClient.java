package dev.senders.test.spring;

import java.time.Duration;
import org.springframework.web.reactive.function.client.WebClient;

/** Posts to {@link AuditApp} and returns the status code. */
public final class AuditClient {

    private final WebClient client;

    public AuditClient(int port) {
        this.client = WebClient.create("http://127.0.0.1:" + port);
    }

    public int post(String path) {
        return client.post().uri(path).exchangeToMono(r -> r.releaseBody().thenReturn(r.statusCode().value()))
                .block(Duration.ofSeconds(10));
    }
}
