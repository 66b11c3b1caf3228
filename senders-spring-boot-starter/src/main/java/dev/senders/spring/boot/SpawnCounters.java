package dev.senders.spring.boot;

import java.util.concurrent.atomic.LongAdder;

/**
 * How work handed to a {@link ScopeSpawner} went: spawned and refused are counted by the spawner,
 * completed, failed and stopped by the work's {@link ObservedWork} operation before it signals the
 * scope. {@link LongAdder}s: spawning threads contend on nothing but the scope's word.
 */
final class SpawnCounters {

    final LongAdder spawned = new LongAdder();
    final LongAdder completed = new LongAdder();
    final LongAdder failed = new LongAdder();
    final LongAdder stopped = new LongAdder();
    final LongAdder refused = new LongAdder();
}
