package dev.senders.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.senders.Env;
import dev.senders.Hooks;
import dev.senders.InplaceStopSource;
import dev.senders.OperationState;
import dev.senders.Query;
import dev.senders.Receiver;
import dev.senders.Sender;
import dev.senders.StopCallback;
import dev.senders.StopToken;
import dev.senders.scope.AsyncScopeToken;
import dev.senders.scope.CountingScope;
import dev.senders.scope.NestSender;
import dev.senders.scope.ScopeState;
import dev.senders.scope.Scopes;
import dev.senders.scope.SimpleCountingScope;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Randomized, time-bounded stress of the P3149 scopes: several threads spawn, nest (connect and
 * start, discard, or drop), spawnFuture (consume, stop the consumer, or drop the future), close,
 * requestStop and join on shared scopes ({@link SimpleCountingScope} and {@link CountingScope}),
 * through many generations of scopes. Every operation has an id and a record; at the end the test
 * proves that nothing was lost or duplicated:
 * <ul>
 * <li>every work that was started completed exactly once, and whoever consumed it (the nest
 *     receiver, the future's consumer, the scope's error handler) saw exactly that completion once;
 * <li>work refused by a closed scope (spawn returned false, unassociated nest, future of a closed
 *     scope) was never connected;
 * <li>every join completed exactly once, and only when {@code count()} was zero, the state JOINED
 *     and every started work of its scope had completed;
 * <li>nothing unexpected reached {@code Hooks.onErrorDropped}.
 * </ul>
 *
 * <p>System properties: {@code senders.stress.seed} (default fixed, printed), {@code
 * senders.stress.millis} (time budget of the random phase, default 6000), {@code
 * senders.stress.threads} (default 4), {@code senders.stress.maxOps} (stop earlier once this
 * many operations were made, default 1,500,000).
 */
class ScopeStressTest {

    static final long SEED = Long.getLong("senders.stress.seed", 0x5EED_2026L);
    static final long BUDGET_MILLIS = Long.getLong("senders.stress.millis", 6_000L);
    static final int THREADS = Integer.getInteger("senders.stress.threads", 4);
    /** A cap besides the time budget, so that a fast machine does not spend long in the final GCs. */
    static final long MAX_OPS = Long.getLong("senders.stress.maxOps", 1_500_000L);

    enum Kind { VALUE, ERROR, STOPPED }

    /** The error a work completes with; carries its operation's id. */
    static final class WorkError extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final transient Object op;
        final long id;

        WorkError(Object op, long id) {
            super("planned error of op " + id, null, false, false);
            this.op = op;
            this.id = id;
        }
    }

    final Queue<String> failures = new ConcurrentLinkedQueue<>();
    final ConcurrentLinkedQueue<Throwable> unexpectedDropped = new ConcurrentLinkedQueue<>();
    final LongAdder droppedFutureErrors = new LongAdder();
    /** Future errors that reached a scope's handler (so its errorCount()); late ones come from the Cleaner. */
    final LongAdder futureErrorsToHandler = new LongAdder();

    ScheduledExecutorService timer;

    @BeforeEach
    void setUp() {
        timer = Executors.newScheduledThreadPool(2, r -> {
            Thread t = new Thread(r, "stress-timer");
            t.setDaemon(true);
            return t;
        });
        Hooks.setOnErrorDropped(e -> {
            if (e instanceof WorkError) {
                Op op = (Op) ((WorkError) e).op;
                // only the error of an abandoned future (decision SC6) or of one whose
                // consumer was stopped first (Scopes.spawnFuture) may be dropped
                if (op != null && op.type == OpType.FUTURE && (op.futureDropped || op.consumerStopRequested)) {
                    if (op.droppedErrors.incrementAndGet() != 1) {
                        failure("abandoned future's error dropped twice: " + describe(op));
                    }
                    droppedFutureErrors.increment();
                    return;
                }
            }
            unexpectedDropped.add(e);
        });
    }

    @AfterEach
    void tearDown() {
        Hooks.resetOnErrorDropped();
        timer.shutdownNow();
    }

    void failure(String s) {
        if (failures.size() < 50) {
            failures.add(s);
        }
    }

    // ------------------------------------------------------------------ bookkeeping

    enum OpType { SPAWN, NEST, FUTURE }

    /** One operation. Counters are atomics so that a duplicate is seen, not hidden by a race. */
    final class Op {
        final long id;
        final OpType type;
        final Gen gen;
        final Kind planned;
        final int mode; // 0 inline, 1 async, 2 slow (waits for stop or a long timer)
        final AtomicInteger connects = new AtomicInteger();
        final AtomicInteger starts = new AtomicInteger();
        final AtomicInteger workCompletions = new AtomicInteger();
        volatile Kind actual;
        /** What the consumer (nest receiver, future consumer, scope error handler) saw. */
        final AtomicInteger consumerCompletions = new AtomicInteger();
        volatile Kind consumed;
        volatile Object consumedValue;
        final AtomicInteger handlerErrors = new AtomicInteger();
        final AtomicInteger droppedErrors = new AtomicInteger();
        volatile boolean refused;            // spawn false / unassociated nest / future of closed scope
        volatile boolean consumerStarted;    // nest connected+started, future consumer started
        volatile boolean consumerStopRequested;
        volatile boolean futureDropped;
        volatile boolean nestDiscarded;
        volatile boolean stepDone;           // the thread that made it is done with it

        Op(long id, OpType type, Gen gen, Kind planned, int mode) {
            this.id = id;
            this.type = type;
            this.gen = gen;
            this.planned = planned;
            this.mode = mode;
        }
    }

    final AtomicLong ids = new AtomicLong();

    /** One generation: a scope and what was done to it. */
    final class Gen {
        final int number;
        final SimpleCountingScope simple;
        final CountingScope counting;
        final AsyncScopeToken token;
        final LongAdder workStarted = new LongAdder();
        final LongAdder workCompleted = new LongAdder();
        final Queue<JoinProbe> joins = new ConcurrentLinkedQueue<>();
        final AtomicInteger retired = new AtomicInteger();
        final Queue<Op> ops = new ConcurrentLinkedQueue<>();
        volatile boolean joinsVerified;
        volatile boolean finalJoinAdded;

        Gen(int number, boolean counting) {
            this.number = number;
            Consumer<Throwable> handler = this::onSpawnError;
            if (counting) {
                this.counting = new CountingScope(handler);
                this.simple = null;
                this.token = faulty ? new OverReleasingToken(this.counting.getToken()) : this.counting.getToken();
            } else {
                this.simple = new SimpleCountingScope(handler);
                this.counting = null;
                this.token = faulty ? new OverReleasingToken(this.simple.getToken()) : this.simple.getToken();
            }
        }

        void onSpawnError(Throwable e) {
            if (!(e instanceof WorkError)) {
                failure("gen " + number + ": scope error handler got a foreign error " + e);
                return;
            }
            Op op = (Op) ((WorkError) e).op;
            if (op.type == OpType.NEST || op.gen != this) {
                failure("scope error handler got the error of " + op);
                return;
            }
            if (op.type == OpType.FUTURE) {
                droppedFutureErrors.increment(); // nobody took it: its consumer stopped first, or it was dropped
                futureErrorsToHandler.increment();
            }
            op.handlerErrors.incrementAndGet();
        }

        long count() {
            return simple != null ? simple.count() : counting.count();
        }

        ScopeState state() {
            return simple != null ? simple.state() : counting.state();
        }

        void close() {
            if (simple != null) {
                simple.close();
            } else {
                counting.close();
            }
        }

        Sender<Void> join() {
            return simple != null ? simple.join() : counting.join();
        }

        long errorCount() {
            return simple != null ? simple.errorCount() : counting.errorCount();
        }
    }

    /** A join's receiver: checks the scope at the moment of completion. */
    final class JoinProbe implements Receiver<Void> {
        final Gen gen;
        final AtomicInteger completions = new AtomicInteger();
        final boolean fin;

        JoinProbe(Gen gen, boolean fin) {
            this.gen = gen;
            this.fin = fin;
        }

        @Override
        public void setValue(Void v) {
            if (completions.incrementAndGet() != 1) {
                failure("join of gen " + gen.number + " completed twice");
            }
            long c = gen.count();
            ScopeState s = gen.state();
            if (c != 0 || s != ScopeState.JOINED) {
                failure("join of gen " + gen.number + " completed with count " + c + " in state " + s);
            }
            long started = gen.workStarted.sum();
            long completed = gen.workCompleted.sum();
            if (started != completed) {
                failure("join of gen " + gen.number + " completed while work was running: started " + started
                        + ", completed " + completed);
            }
            joinsCompleted.increment();
        }

        @Override
        public void setError(Throwable e) {
            completions.incrementAndGet();
            failure("join of gen " + gen.number + " completed with error " + e);
        }

        @Override
        public void setStopped() {
            completions.incrementAndGet();
            failure("join of gen " + gen.number + " completed stopped");
        }
    }

    // ------------------------------------------------------------------ the work

    /** The work of one operation: records connect/start/completion, honours stop. */
    final class Work implements Sender<Object> {
        final Op op;

        Work(Op op) {
            this.op = op;
        }

        @Override
        public OperationState connect(Receiver<? super Object> r) {
            op.connects.incrementAndGet();
            return new WorkOp(op, r);
        }
    }

    final class WorkOp implements OperationState, Runnable {
        final Op op;
        final Receiver<? super Object> r;
        final AtomicInteger claimed = new AtomicInteger();
        volatile StopCallback cb;

        WorkOp(Op op, Receiver<? super Object> r) {
            this.op = op;
            this.r = r;
        }

        @Override
        public void start() {
            if (op.starts.incrementAndGet() != 1) {
                failure("work of op " + op.id + " started twice");
            }
            op.gen.workStarted.increment();
            if (op.mode == 0) {
                complete(op.planned);
                return;
            }
            StopToken token = r.env().stopToken();
            if (token.stopPossible()) {
                StopCallback c = token.onStop(this);
                cb = c;
                if (claimed.get() != 0) {
                    c.close(); // completed (stopped) inline during onStop: deregister now
                }
            }
            long delayMicros = op.mode == 1 ? (op.id % 200) : 20_000 + (op.id % 30_000);
            timer.schedule(() -> complete(op.planned), delayMicros, TimeUnit.MICROSECONDS);
        }

        @Override
        public void run() { // stop callback
            complete(Kind.STOPPED);
        }

        void complete(Kind k) {
            if (!claimed.compareAndSet(0, 1)) {
                return;
            }
            StopCallback c = cb;
            if (c != null) {
                c.close();
            }
            op.actual = k;
            if (op.workCompletions.incrementAndGet() != 1) {
                failure("work of op " + op.id + " completed twice");
            }
            op.gen.workCompleted.increment(); // before the receiver: the scope may dissociate in it
            switch (k) {
                case VALUE:
                    r.setValue(op.id);
                    break;
                case ERROR:
                    r.setError(new WorkError(op, op.id));
                    break;
                default:
                    r.setStopped();
            }
        }
    }

    /** The receiver of a nest or of a future's consumer. */
    final class ConsumerProbe implements Receiver<Object> {
        final Op op;
        final Env env;

        ConsumerProbe(Op op, Env env) {
            this.op = op;
            this.env = env;
        }

        private void record(Kind k, Object v) {
            if (op.consumerCompletions.incrementAndGet() != 1) {
                failure(op.type + " op " + op.id + ": consumer completed twice");
            }
            op.consumedValue = v;
            op.consumed = k;
            consumerCompleted.increment();
        }

        @Override
        public void setValue(Object v) {
            record(Kind.VALUE, v);
        }

        @Override
        public void setError(Throwable e) {
            record(Kind.ERROR, e);
        }

        @Override
        public void setStopped() {
            record(Kind.STOPPED, null);
        }

        @Override
        public Env env() {
            return env;
        }
    }

    // ------------------------------------------------------------------ counters for the report

    final LongAdder spawns = new LongAdder(), spawnsRefused = new LongAdder();
    final LongAdder nests = new LongAdder(), nestsRefused = new LongAdder(), nestsDiscarded = new LongAdder(),
            nestsDropped = new LongAdder();
    final LongAdder futures = new LongAdder(), futuresRefused = new LongAdder(), futuresDropped = new LongAdder(),
            futureConsumerStops = new LongAdder();
    final LongAdder closes = new LongAdder(), requestStops = new LongAdder(), joinsStarted = new LongAdder(),
            joinsCompleted = new LongAdder(), consumerCompleted = new LongAdder();
    final AtomicInteger generations = new AtomicInteger();
    final AtomicReference<Gen> current = new AtomicReference<>();
    final Queue<Gen> allGens = new ConcurrentLinkedQueue<>();

    Gen newGen(SplittableRandom rnd) {
        Gen g = new Gen(generations.incrementAndGet(), rnd.nextBoolean());
        allGens.add(g);
        return g;
    }

    /** Closes {@code g}, installs a new generation (once) and starts g's final join. */
    void retire(Gen g, SplittableRandom rnd) {
        if (!g.retired.compareAndSet(0, 1)) {
            return;
        }
        g.close();
        closes.increment();
        if (current.get() == g) { // only a retire of the current generation moves `current`
            current.set(newGen(rnd));
        }
        startJoin(g, true);
    }

    void startJoin(Gen g, boolean fin) {
        JoinProbe j = new JoinProbe(g, fin);
        g.joins.add(j);
        if (fin) {
            g.finalJoinAdded = true; // only now may the sweep verify g
        }
        joinsStarted.increment();
        g.join().connect(j).start();
    }

    Op newOp(OpType type, Gen g, SplittableRandom rnd) {
        int p = rnd.nextInt(10);
        Kind planned = p < 6 ? Kind.VALUE : p < 8 ? Kind.ERROR : Kind.STOPPED;
        int m = rnd.nextInt(100);
        int mode = m < 55 ? 0 : m < 97 ? 1 : 2;
        Op op = new Op(ids.incrementAndGet(), type, g, planned, mode);
        g.ops.add(op);
        return op;
    }

    void step(SplittableRandom rnd) {
        Op op = step0(rnd);
        if (op != null) {
            op.stepDone = true;
        }
    }

    Op step0(SplittableRandom rnd) {
        Gen g = current.get();
        Op op = null;
        int r = rnd.nextInt(1000);
        if (r < 450) {
            op = newOp(OpType.SPAWN, g, rnd);
            spawns.increment();
            if (!Scopes.spawn(new Work(op), g.token)) {
                op.refused = true;
                spawnsRefused.increment();
                retire(g, rnd); // joined or closed: move on to a fresh scope
            }
        } else if (r < 700) {
            op = newOp(OpType.NEST, g, rnd);
            nests.increment();
            NestSender<Object> n = Scopes.nest(new Work(op), g.token);
            if (!n.isAssociated()) {
                op.refused = true;
                nestsRefused.increment();
            }
            int what = rnd.nextInt(100);
            if (what < 85 || !n.isAssociated()) {
                op.consumerStarted = true;
                n.connect(new ConsumerProbe(op, Env.empty())).start();
            } else if (what < 97) {
                op.nestDiscarded = true;
                nestsDiscarded.increment();
                if (!n.discard()) {
                    failure("discard of an unconnected, associated nest returned false, op " + op.id);
                }
            } else {
                nestsDropped.increment(); // dropped: the Cleaner releases it with its batch
            }
        } else if (r < 900) {
            op = newOp(OpType.FUTURE, g, rnd);
            futures.increment();
            Sender<Object> f = Scopes.spawnFuture(new Work(op), g.token);
            int what = rnd.nextInt(100);
            if (what < 88) {
                InplaceStopSource consumerStop = new InplaceStopSource();
                op.consumerStarted = true;
                f.connect(new ConsumerProbe(op, Env.of(Query.STOP_TOKEN, consumerStop.token()))).start();
                if (what < 12) {
                    op.consumerStopRequested = true;
                    futureConsumerStops.increment();
                    consumerStop.requestStop();
                }
            } else {
                op.futureDropped = true;
                futuresDropped.increment();
            }
        } else if (r < 930) {
            if (g.counting != null) {
                g.counting.requestStop();
                requestStops.increment();
            }
        } else if (r < 960) {
            startJoin(g, false);
        } else if (r < 963) {
            retire(g, rnd);
        }
        return op;
    }

    /** Set by the self-check: every generation's token over-releases now and then. */
    boolean faulty;

    /**
     * A deliberately broken token for the self-check: every 64th {@code dissociate()} releases twice
     * (the second release takes another operation's association; its exception at count 0 is
     * swallowed). A correct bookkeeping must notice joins that complete while work still runs.
     */
    static final class OverReleasingToken implements AsyncScopeToken {
        final AsyncScopeToken delegate;
        final AtomicInteger calls = new AtomicInteger();

        OverReleasingToken(AsyncScopeToken delegate) {
            this.delegate = delegate;
        }

        @Override
        public boolean tryAssociate() {
            return delegate.tryAssociate();
        }

        @Override
        public void dissociate() {
            int n = (calls.incrementAndGet() & 63) == 0 ? 2 : 1;
            for (int i = 0; i < n; i++) {
                try {
                    delegate.dissociate();
                } catch (IllegalStateException alreadyZero) {
                    // the injected fault: ignore, so that the run goes on
                }
            }
        }

        @Override
        public <T> Sender<T> wrap(Sender<T> sender) {
            return delegate.wrap(sender);
        }
    }

    @Test
    @DisplayName("self-check: the stress bookkeeping catches a scope that releases associations early")
    void selfCheck_bookkeepingDetectsEarlyJoins() throws Exception {
        faulty = true;
        List<Throwable> thrown = runStress(SEED, 1_500L);
        assertTrue(failures.stream().anyMatch(f -> f.contains("completed while work was running")
                        || f.contains("completed with count")),
                () -> "the injected early releases went unnoticed; failures: " + failures + ", thrown: " + thrown);
        System.out.println("stress self-check: the injected fault was detected (" + failures.size()
                + " failures recorded, first: " + failures.peek() + ")");
    }

    @Test
    @DisplayName("P3149 scopes under random concurrent spawn/nest/spawnFuture/close/requestStop/join: nothing lost or duplicated")
    void randomScopeOperations_everyOperationCompletesExactlyOnce() throws Exception {
        System.out.println("stress: seed=" + SEED + " (override with -Dsenders.stress.seed=...), budget "
                + BUDGET_MILLIS + " ms, " + THREADS + " threads");
        List<Throwable> thrown = runStress(SEED, BUDGET_MILLIS);
        report();
    }

    /** Runs the random phase and the final verification; records failures, asserts only hangs. */
    List<Throwable> runStress(long seed, long budgetMillis) throws Exception {
        SplittableRandom root = new SplittableRandom(seed);
        current.set(newGen(root.split()));
        long begin = System.nanoTime();
        long deadline = begin + TimeUnit.MILLISECONDS.toNanos(budgetMillis);
        List<Thread> threads = new ArrayList<>();
        CountDownLatch go = new CountDownLatch(1);
        List<Throwable> thrown = new java.util.concurrent.CopyOnWriteArrayList<>();
        for (int i = 0; i < THREADS; i++) {
            SplittableRandom rnd = root.split();
            Thread t = new Thread(() -> {
                try {
                    go.await();
                    int n = 0;
                    while ((++n & 255) != 0 || System.nanoTime() < deadline && ids.get() < MAX_OPS) {
                        step(rnd);
                    }
                } catch (Throwable e) {
                    thrown.add(e);
                }
            }, "stress-" + i);
            threads.add(t);
            t.start();
        }
        go.countDown();
        // Verify finished generations while the others run (keeps the bookkeeping's memory bounded).
        long lastGc = System.nanoTime();
        for (Thread t : threads) {
            while (t.isAlive() && System.nanoTime() < deadline + TimeUnit.SECONDS.toNanos(30)) {
                t.join(200);
                if (System.nanoTime() - lastGc > TimeUnit.SECONDS.toNanos(1)) {
                    System.gc(); // lets the Cleaner release dropped nests, so their generations finish now
                    lastGc = System.nanoTime();
                }
                sweep();
            }
            assertTrue(!t.isAlive(), "stress thread hung: " + t.getName());
        }

        // Retire the last generation, then wait (hang guard) until every generation is verified.
        // Dropped nests are released by the Cleaner once collected, hence the GC nudges.
        retire(current.get(), root.split());
        Gen last = current.get();
        last.retired.set(1);
        last.close();
        startJoin(last, true);
        long endPhase = System.nanoTime();
        System.out.println("stress: random phase ended after " + TimeUnit.NANOSECONDS.toMillis(endPhase - begin)
                + " ms (budget " + budgetMillis + " ms, cap " + MAX_OPS + " operations)");
        int pendingAtEnd = allGens.size();
        boolean allVerified = false;
        long endDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        int lastSize = -1;
        long lastProgress = System.nanoTime();
        while (System.nanoTime() < endDeadline) {
            sweep();
            int size = allGens.size();
            if (size == 0) {
                allVerified = true;
                break;
            }
            if (size != lastSize) {
                lastSize = size;
                lastProgress = System.nanoTime();
            } else if (System.nanoTime() - lastProgress > TimeUnit.MILLISECONDS.toNanos(200)) {
                System.gc(); // no progress: dropped nests wait for the Cleaner, which waits for a GC
                lastProgress = System.nanoTime();
            }
            Thread.sleep(20);
        }
        System.out.println("stress: " + pendingAtEnd + " generations pending after the random phase, verified in "
                + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - endPhase) + " ms");
        if (!allVerified) {
            StringBuilder sb = new StringBuilder();
            for (Gen g : allGens) {
                sb.append(" gen ").append(g.number).append(" count=").append(g.count()).append(" state=")
                        .append(g.state()).append(" joins=").append(g.joins.size()).append(" pending=")
                        .append(g.joins.stream().filter(j -> j.completions.get() == 0).count()).append(';');
            }
            failure("generations never finished (a join or a consumer never completed):" + sb);
        }
        for (Gen g : doneGens) { // ops made on a generation after it was verified (all refused)
            leftovers.addAll(g.ops);
        }
        Op late;
        while ((late = leftovers.poll()) != null) {
            verifyOp(late);
        }
        return thrown;
    }

    final LongAdder opsVerified = new LongAdder(), workStarted = new LongAdder(), lost = new LongAdder(),
            duplicated = new LongAdder(), refusedRan = new LongAdder(), mismatched = new LongAdder(),
            spawnErrors = new LongAdder(), errorCounts = new LongAdder(), joinsVerified = new LongAdder();

    /** Verifies and forgets every generation that has finished (final join and all consumers completed). */
    synchronized void sweep() {
        for (java.util.Iterator<Gen> it = allGens.iterator(); it.hasNext(); ) {
            Gen g = it.next();
            if (!g.finalJoinAdded) {
                continue;
            }
            boolean finished = g.joins.stream().allMatch(j -> j.completions.get() > 0)
                    && g.ops.stream().allMatch(op -> !op.stepDone || !op.consumerStarted
                            || op.consumerCompletions.get() > 0);
            if (!finished) {
                continue;
            }
            verify(g);
            it.remove();
            doneGens.add(g);
        }
    }

    final Queue<Op> leftovers = new ConcurrentLinkedQueue<>();
    final Queue<Gen> doneGens = new ConcurrentLinkedQueue<>();

    void verify(Gen g) {
        Op next;
        while ((next = g.ops.poll()) != null) {
            if (!next.stepDone) {
                leftovers.add(next); // made by a thread that still held the old generation: verified at the end
                continue;
            }
            verifyOp(next);
        }
        if (g.joinsVerified) {
            return;
        }
        g.joinsVerified = true;
        errorCounts.add(g.errorCount());
        if (g.joins.stream().filter(j -> j.fin).count() != 1) {
            failure("gen " + g.number + " did not get exactly one final join");
        }
        for (JoinProbe j : g.joins) {
            joinsVerified.increment();
            if (j.completions.get() != 1) {
                duplicated.increment();
                failure("join of gen " + g.number + " completed " + j.completions.get() + " times");
            }
        }
        if (g.count() != 0 || g.state() != ScopeState.JOINED) {
            failure("gen " + g.number + " ended with count " + g.count() + " in " + g.state());
        }
    }

    void verifyOp(Op op) {
        {
            opsVerified.increment();
            int starts = op.starts.get();
            workStarted.add(starts);
            if (starts > 1 || op.workCompletions.get() > 1 || op.consumerCompletions.get() > 1
                    || op.handlerErrors.get() > 1 || op.droppedErrors.get() > 1) {
                duplicated.increment();
                failure("duplicated: " + describe(op));
            }
            if (op.type == OpType.FUTURE && op.connects.get() == 0) {
                op.refused = true; // an associated future connects its work before spawnFuture returns
                futuresRefused.increment();
            }
            if (op.refused) {
                if (op.connects.get() != 0) {
                    refusedRan.increment();
                    failure("refused work was connected: " + describe(op));
                }
                if (op.consumerStarted && op.consumed != Kind.STOPPED) {
                    mismatched.increment();
                    failure("refused op's consumer did not complete stopped: " + describe(op));
                }
                return;
            }
            if (op.type == OpType.NEST && !op.consumerStarted) { // discarded or dropped: never runs
                if (op.connects.get() != 0) {
                    refusedRan.increment();
                    failure("discarded/dropped nest was connected: " + describe(op));
                }
                return;
            }
            if (op.connects.get() != 1 || starts != 1 || op.workCompletions.get() != 1) {
                lost.increment();
                failure("associated work not connected, started and completed exactly once: " + describe(op));
                return;
            }
            Kind actual = op.actual;
            switch (op.type) {
                case SPAWN:
                    if (actual == Kind.ERROR) {
                        spawnErrors.increment();
                    }
                    if ((actual == Kind.ERROR) != (op.handlerErrors.get() == 1)) {
                        lost.increment();
                        failure("spawn error not routed exactly once: " + describe(op));
                    }
                    break;
                case NEST:
                    if (!sameAsWork(op, op.consumed)) {
                        mismatched.increment();
                        failure("nest receiver saw something else than the work: " + describe(op));
                    }
                    break;
                default:
                    if (op.consumerStarted) {
                        boolean ok = sameAsWork(op, op.consumed)
                                || op.consumerStopRequested && op.consumed == Kind.STOPPED;
                        if (!ok) {
                            mismatched.increment();
                            failure("future consumer saw something else than the work: " + describe(op));
                        }
                        // an error the stopped consumer did not take goes to the scope's handler, once
                        boolean untaken = actual == Kind.ERROR && op.consumed == Kind.STOPPED;
                        if (op.handlerErrors.get() != (untaken ? 1 : 0)) {
                            lost.increment();
                            failure("future error not routed exactly once to the handler: " + describe(op));
                        }
                    } else if (actual != Kind.ERROR && (op.droppedErrors.get() + op.handlerErrors.get()) != 0) {
                        failure("error reported for a future whose work did not fail: " + describe(op));
                    }
            }
        }
    }

    static boolean sameAsWork(Op op, Kind seen) {
        Kind actual = op.actual;
        if (seen != actual) {
            return false;
        }
        switch (actual) {
            case VALUE:
                return Long.valueOf(op.id).equals(op.consumedValue);
            case ERROR:
                return op.consumedValue instanceof WorkError && ((WorkError) op.consumedValue).op == op;
            default:
                return true;
        }
    }

    void report() {
        System.out.printf("stress: %d ops, %d spawns (%d refused), %d nests (%d refused, %d discarded, %d dropped),"
                        + " %d spawnFutures (%d refused, %d consumer stops, %d dropped), %d works started,"
                        + " %d closes, %d requestStops, %d joins (%d completed) over %d scopes,"
                        + " %d spawn errors routed, %d untaken future errors routed; %d lost, %d duplicated,"
                        + " %d refused-but-ran, %d mismatched%n",
                opsVerified.sum(), spawns.sum(), spawnsRefused.sum(), nests.sum(), nestsRefused.sum(),
                nestsDiscarded.sum(), nestsDropped.sum(), futures.sum(), futuresRefused.sum(),
                futureConsumerStops.sum(), futuresDropped.sum(), workStarted.sum(), closes.sum(), requestStops.sum(),
                joinsVerified.sum(), joinsCompleted.sum(), generations.get(), spawnErrors.sum(),
                droppedFutureErrors.sum(), lost.sum(), duplicated.sum(), refusedRan.sum(), mismatched.sum());
        assertTrue(unexpectedDropped.isEmpty(), () -> "unexpected errors dropped to Hooks: " + unexpectedDropped);
        assertTrue(failures.isEmpty(), () -> "seed " + SEED + ": " + String.join("\n", failures));
        // errorCount() counts spawned errors and the future errors nobody took (a dropped future's may
        // reach the handler from the Cleaner after the count was read)
        long counted = errorCounts.sum();
        assertTrue(counted >= spawnErrors.sum() && counted <= spawnErrors.sum() + futureErrorsToHandler.sum(),
                () -> "sum of errorCount() " + counted + " vs spawned work that failed " + spawnErrors.sum()
                        + " plus untaken future errors " + futureErrorsToHandler.sum());
        assertEquals(0, lost.sum() + duplicated.sum() + refusedRan.sum() + mismatched.sum());
        assertEquals(spawns.sum() + nests.sum() + futures.sum(), opsVerified.sum(), "operations verified");
    }

    static String describe(Op op) {
        return op.type + " op " + op.id + " gen " + op.gen.number + " planned=" + op.planned + " mode=" + op.mode
                + " connects=" + op.connects + " starts=" + op.starts + " completions=" + op.workCompletions
                + " actual=" + op.actual + " consumer=" + op.consumed + "x" + op.consumerCompletions
                + " handlerErrors=" + op.handlerErrors + " refused=" + op.refused + " consumerStop="
                + op.consumerStopRequested;
    }

    static boolean awaitWithGc(java.util.function.BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            if (condition.getAsBoolean()) {
                return true;
            }
            System.gc();
            Thread.sleep(20);
        }
        return condition.getAsBoolean();
    }
}
