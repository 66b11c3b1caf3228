package dev.senders.examples.webflux;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import org.h2.jdbcx.JdbcConnectionPool;

/**
 * The audit store: one table in an embedded H2 database, written with plain, blocking JDBC.
 * {@link #record} is slow on purpose ({@code audit.write-delay}); call it on a thread that may
 * block, never on an event-loop thread. {@link #close()} (called by Spring when the context is
 * destroyed) closes the connection pool: a write still running after that fails.
 */
public class AuditStore implements AutoCloseable {

    private final JdbcConnectionPool pool;
    private final Duration writeDelay;

    public AuditStore(String url, Duration writeDelay) {
        this.pool = JdbcConnectionPool.create(url, "sa", "");
        this.writeDelay = writeDelay;
        try (Connection c = pool.getConnection(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE IF NOT EXISTS audit (order_id VARCHAR(64) NOT NULL, at TIMESTAMP NOT NULL)");
        } catch (SQLException e) {
            throw new IllegalStateException("cannot create the audit table", e);
        }
    }

    /** Writes one audit row (blocking, slow). */
    public void record(String orderId) throws InterruptedException, SQLException {
        Thread.sleep(writeDelay.toMillis());
        try (Connection c = pool.getConnection();
             PreparedStatement s = c.prepareStatement("INSERT INTO audit (order_id, at) VALUES (?, ?)")) {
            s.setString(1, orderId);
            s.setTimestamp(2, Timestamp.from(Instant.now()));
            s.executeUpdate();
        }
    }

    /** The number of rows written so far. */
    public long count() throws SQLException {
        try (Connection c = pool.getConnection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM audit")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    @Override
    public void close() {
        pool.dispose();
    }
}
