package dev.senders.docs.spring;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** The audit records of {@link SnippetApp}: what the docs' Spring test snippets assert. */
public class AuditStore {

    private final List<String> events = new CopyOnWriteArrayList<>();

    void add(String orderId) {
        events.add(orderId);
    }

    /** The orders audited so far. */
    public List<String> events() {
        return List.copyOf(events);
    }

    /** How many orders were audited. */
    public int count() {
        return events.size();
    }
}
