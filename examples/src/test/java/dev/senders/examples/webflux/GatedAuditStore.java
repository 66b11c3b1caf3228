package dev.senders.examples.webflux;

import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;

/**
 * An audit store whose writes wait for a gate: the tests keep every side effect running until
 * they choose, so that "still running at shutdown" is certain, not a matter of timing.
 */
final class GatedAuditStore extends AuditStore {

    final CountDownLatch gate = new CountDownLatch(1);
    final CountDownLatch firstWriteWaiting = new CountDownLatch(1);

    GatedAuditStore(String url) {
        super(url, Duration.ZERO);
    }

    @Override
    public void record(String orderId) throws InterruptedException, SQLException {
        firstWriteWaiting.countDown();
        if (!gate.await(60, TimeUnit.SECONDS)) {                 // hang guard only
            throw new IllegalStateException("gate never opened");
        }
        super.record(orderId);
    }

    /** Replaces the application's store in a test context. */
    @TestConfiguration(proxyBeanMethods = false)
    static class Config {
        @Bean
        @Primary
        GatedAuditStore gatedAuditStore(AuditProperties props) {
            return new GatedAuditStore(props.dbUrl());
        }
    }
}
