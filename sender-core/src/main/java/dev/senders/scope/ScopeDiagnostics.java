package dev.senders.scope;

import dev.senders.Hooks;
import dev.senders.internal.SharedTimer;
import dev.senders.internal.VarHandles;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The operator's view of one scope: its given name, where it was created (debug capture), how
 * many associations it refused, and the list of its tracked work ({@link TrackedSender}). A scope
 * creates it eagerly when named or created under debug capture, else on its first refusal or its
 * first tracked work: an unnamed scope that never tracks or refuses anything has none.
 * The leak check of a public scope ({@link LeakCheck}) reports what it holds.
 */
final class ScopeDiagnostics {
    /*
     * The outstanding list.
     * A Treiber stack of TrackedSender.Op nodes (head), with lazy removal, as
     * InplaceStopSource does for its callbacks:
     * - push (at a node's start): one CAS on head.
     * - A node finishes by its own state CAS. If it is on top and no sweep runs, the finishing
     *   thread takes the sweep flag (sweeping, 0/1 by CAS) and pops it (the common case:
     *   work ending in the order it started). Otherwise it adds one to finished; when
     *   finished nodes make up about half of what the last sweep left
     *   (2 * finished >= liveAtLastSweep), the finishing thread sweeps unless another
     *   thread holds the flag: amortized O(1) per node, memory proportional to running work.
     * - Only the sweeper rewrites links: it unlinks finished nodes at the top with a CAS on
     *   head (a push that wins simply leaves them to the next sweep) and the others by
     *   rewriting next of a node it keeps. Pushers touch only head; walkers (the dump)
     *   tolerate old and new links alike, and skip finished nodes.
     * - No finished node is left behind once work stops finishing: a finisher that loses the
     *   sweeping CAS has incremented finished first; whoever held the flag clears
     *   it and then re-reads finished, and sweeps (again) if it grew meanwhile. (A node
     *   whose work completed between its start CAS and its push, which only a sender completing
     *   from another thread during connect can do, may stay until the next sweep; it is never listed.)
     */

    /** The given name; null for an unnamed scope (ScopeCore then generates one). */
    final @Nullable String name;
    /** Where the scope was created (debug capture on at creation), else null. */
    final @Nullable ScopeTrace createdAt;

    /** Refusals because the scope was closed or joined. */
    private volatile long refusedClosed;
    /** Refusals because the scope held {@code maxOutstanding} operations. */
    private volatile long refusedFull;
    private volatile TrackedSender.@Nullable Op<?> head;
    private volatile long finished;
    private volatile int sweeping;
    /** Nodes the last sweep kept; written by the sweeper, read racily by finishers (a heuristic). */
    private int liveAtLastSweep;

    ScopeDiagnostics(@Nullable String name, @Nullable ScopeTrace createdAt) {
        this.name = name;
        this.createdAt = createdAt;
    }

    void refused(RefusalReason reason) {
        (reason == RefusalReason.FULL ? REFUSED_FULL : REFUSED_CLOSED).getAndAdd(this, 1L);
    }

    long refusedCount(RefusalReason reason) {
        return reason == RefusalReason.FULL ? refusedFull : refusedClosed;
    }

    void push(TrackedSender.Op<?> node) {
        TrackedSender.Op<?> h;
        do {
            h = head;
            node.next = h;
        } while (!HEAD.compareAndSet(this, h, node));
    }

    /**
     * {@code node} finished (its state CAS is done). Fast path, for work that ends in the order it
     * started (inline work, a burst of short tasks): take the sweep flag and pop the node off the
     * top, two CASes. Otherwise count it and sweep when due.
     */
    void finished(TrackedSender.Op<?> node) {
        if (SWEEPING.compareAndSet(this, 0, 1)) {
            boolean popped = false;
            try {
                if (head == node && HEAD.compareAndSet(this, node, node.next)) {
                    popped = true;
                    int live = liveAtLastSweep;
                    if (live > 0) {
                        liveAtLastSweep = live - 1;
                    }
                    // finished nodes now on top (counted, or about to be, in finished) go too
                    int removed = 0;
                    TrackedSender.Op<?> h;
                    while ((h = head) != null && h.isFinished() && HEAD.compareAndSet(this, h, h.next)) {
                        removed++;
                    }
                    if (removed != 0) {
                        FINISHED.getAndAdd(this, (long) -removed);
                    }
                }
            } finally {
                sweeping = 0;
            }
            if (popped) {
                // a finisher that lost the flag to us counted itself first: look again
                long f = finished;
                if (f > 0 && f * 2 >= liveAtLastSweep) {
                    trySweep();
                }
                return;
            }
        }
        long f = (long) FINISHED.getAndAdd(this, 1L) + 1L;
        if (f * 2 >= liveAtLastSweep) {
            trySweep();
        }
    }

    private void trySweep() {
        while (SWEEPING.compareAndSet(this, 0, 1)) {
            long before = finished;
            int removed;
            try {
                removed = sweep();
            } finally {
                sweeping = 0;
            }
            long after = finished;
            // sweep again only if nodes finished during this pass (they may have been missed)
            if (after <= before - removed || after <= 0 || after * 2 < liveAtLastSweep) {
                return;
            }
        }
    }

    /** One pass; the caller holds {@code sweeping}. Returns the number of nodes unlinked. */
    private int sweep() {
        int removed = 0;
        TrackedSender.Op<?> p = head;
        while (p != null && p.isFinished()) {
            if (HEAD.compareAndSet(this, p, p.next)) {
                removed++;
                p = p.next;
            } else {
                p = head; // a push won: start again from the new top
            }
        }
        int live = 0;
        if (p != null) {
            live = 1;
            for (TrackedSender.Op<?> q = p.next; q != null; q = q.next) {
                if (q.isFinished()) {
                    p.next = q.next;
                    removed++;
                } else {
                    p = q;
                    live++;
                }
            }
        }
        liveAtLastSweep = live;
        if (removed != 0) {
            FINISHED.getAndAdd(this, (long) -removed);
        }
        return removed;
    }

    /** The running tracked work, oldest first. */
    List<OutstandingWork> snapshot(String scopeName) {
        long now = SharedTimer.nanoTime();
        Instant wall = Instant.now();
        List<OutstandingWork> out = new ArrayList<>();
        for (TrackedSender.Op<?> n = head; n != null; n = n.next) {
            if (n.isRunning()) {
                out.add(new OutstandingWork(scopeName, n.name, n.kind, n.startNanos, now, wall,
                        n.site == null ? null : n.site.getStackTrace(), n.isQueued()));
            }
        }
        out.sort(Comparator.comparing(OutstandingWork::age).reversed());
        return out;
    }

    /**
     * The bounded view of the running tracked work: one walk of the list (newest first) that keeps
     * the last {@code limit} running nodes met (the oldest, as nodes are pushed when their work
     * starts) in a ring, counts by kind and by name (at most
     * {@link OutstandingSummary#MAX_NAMES_COUNTED} distinct names) and the earliest start. Memory is
     * bounded by the limit and the name cap; nothing is sorted but the kept entries.
     */
    OutstandingSummary summary(String scopeName, long total, int limit) {
        long now = SharedTimer.nanoTime();
        Instant wall = Instant.now();
        TrackedSender.Op<?>[] ring = new TrackedSender.Op<?>[limit];
        long running = 0L;
        long earliest = 0L;
        Map<String, long[]> names = new HashMap<>();
        Map<String, long[]> kinds = new LinkedHashMap<>();
        for (TrackedSender.Op<?> n = head; n != null; n = n.next) {
            if (!n.isRunning()) {
                continue;
            }
            if (limit > 0) {
                ring[(int) (running % limit)] = n;
            }
            if (running == 0L || n.startNanos - earliest < 0L) {
                earliest = n.startNanos;
            }
            running++;
            kinds.computeIfAbsent(n.kind, k -> new long[1])[0]++;
            String name = n.name == null ? OutstandingSummary.UNNAMED : n.name;
            long[] c = names.get(name);
            if (c == null && names.size() < OutstandingSummary.MAX_NAMES_COUNTED) {
                names.put(name, c = new long[1]);
            }
            if (c != null) {
                c[0]++; // work under a name beyond the cap ends up in otherNames
            }
        }
        int kept = (int) Math.min(running, limit);
        List<OutstandingWork> oldest = new ArrayList<>(kept);
        for (int i = 0; i < kept; i++) {
            // the ring's last write is the oldest node: walk back from it
            TrackedSender.Op<?> n = ring[(int) ((running - 1 - i) % limit)];
            oldest.add(new OutstandingWork(scopeName, n.name, n.kind, n.startNanos, now, wall,
                    n.site == null ? null : n.site.getStackTrace(), n.isQueued()));
        }
        oldest.sort(Comparator.comparing(OutstandingWork::age).reversed());
        List<Map.Entry<String, long[]>> byCount = new ArrayList<>(names.entrySet());
        byCount.sort((a, b) -> a.getValue()[0] != b.getValue()[0] ? Long.compare(b.getValue()[0], a.getValue()[0])
                : a.getKey().compareTo(b.getKey()));
        Map<String, Long> byName = new LinkedHashMap<>();
        long shown = 0L;
        for (int i = 0; i < byCount.size() && i < OutstandingSummary.MAX_NAMES_SHOWN; i++) {
            long c = byCount.get(i).getValue()[0];
            byName.put(byCount.get(i).getKey(), c);
            shown += c;
        }
        Map<String, Long> byKind = new LinkedHashMap<>();
        kinds.forEach((k, c) -> byKind.put(k, c[0]));
        return new OutstandingSummary(scopeName, limit, total, running, oldest, byName, running - shown, byKind,
                running == 0L ? null : Duration.ofNanos(Math.max(0L, now - earliest)));
    }

    /** Nodes currently linked (running or finished and not yet swept): for retention tests. */
    int linkedNodes() {
        int n = 0;
        for (TrackedSender.Op<?> q = head; q != null; q = q.next) {
            n++;
        }
        return n;
    }

    /**
     * The Cleaner action of a public scope handle, registered at the scope's first association:
     * reports a leak to {@link Hooks#onErrorDropped} as a {@link ScopeLeakedException}; never
     * references the handle. A leak is work still associated: a scope whose count is zero lost
     * nothing, whatever its state.
     */
    static final class LeakCheck implements Runnable {
        private final ScopeCore core;

        LeakCheck(ScopeCore core) {
            this.core = core;
        }

        @Override
        public void run() {
            long w = core.word();
            long count = w >>> ScopeCore.COUNT_SHIFT;
            if (count != 0) {
                ScopeDiagnostics d = core.diagnosticsIfAny();
                Hooks.onErrorDropped(new ScopeLeakedException(core.name(), ScopeCore.stateOf(w), count,
                        core.outstanding(), OutstandingSummary.of(core, OutstandingSummary.DEFAULT_LIMIT),
                        d == null ? null : d.createdAt));
            }
        }
    }

    private static final VarHandle HEAD = VarHandles.field(MethodHandles.lookup(), ScopeDiagnostics.class, "head", TrackedSender.Op.class);
    private static final VarHandle FINISHED = VarHandles.field(MethodHandles.lookup(), ScopeDiagnostics.class, "finished", long.class);
    private static final VarHandle SWEEPING = VarHandles.field(MethodHandles.lookup(), ScopeDiagnostics.class, "sweeping", int.class);
    private static final VarHandle REFUSED_CLOSED = VarHandles.field(MethodHandles.lookup(), ScopeDiagnostics.class, "refusedClosed", long.class);
    private static final VarHandle REFUSED_FULL = VarHandles.field(MethodHandles.lookup(), ScopeDiagnostics.class, "refusedFull", long.class);
}
