package dev.senders.stress.random;

import static org.junit.jupiter.api.Assertions.fail;

import dev.senders.Env;
import dev.senders.Hooks;
import dev.senders.InplaceStopSource;
import dev.senders.OperationState;
import dev.senders.Query;
import dev.senders.Receiver;
import dev.senders.Sender;
import dev.senders.Senders;
import dev.senders.StopToken;
import dev.senders.reactor.ReactorScopes;
import dev.senders.rxjava3.RxScopes;
import dev.senders.scope.AsyncScopeToken;
import dev.senders.scope.CountingScope;
import dev.senders.scope.ScopeState;
import dev.senders.scope.Scopes;
import io.reactivex.rxjava3.core.Single;
import io.reactivex.rxjava3.exceptions.UndeliverableException;
import io.reactivex.rxjava3.plugins.RxJavaPlugins;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;

/**
 * Randomized, seeded stress of the async scopes: {@value #WORKERS} threads throw a random mix of
 * scope operations at one {@link CountingScope} per round (spawn, nest and spawnFuture of core
 * senders; {@code ReactorScopes.spawn/nest} of Monos; {@code RxScopes.spawn} of Singles; joins,
 * disposes, consumer stops, and at a random point of some rounds the scope's stop and close),
 * with work that completes inline or on a pool, with a value or an error, or only when stopped.
 * After each round the scope is closed, stopped and joined, and every unit is accounted for:
 *
 * <ul>
 * <li>every unit the scope accepted ended exactly once (value, error or stop/cancel), and every
 *     unit it refused never ran;
 * <li>every consumer (of a nest, a future, a nested Flux) completed exactly once, with what the
 *     work ended with (or stopped, when it was stopped or refused);
 * <li>every error reached exactly one place: the scope's error handler (spawned work), its
 *     consumer (nest, future), or, for adapter work disposed before it failed, Reactor's or
 *     RxJava's dropped-error hook; nothing reached {@link Hooks#onErrorDropped};
 * <li>every join started during the round ended, once; the count is zero and the scope JOINED.
 * </ul>
 *
 * <p>The operation sequence of each worker follows from the seed; thread timing does not, so a
 * failing seed reproduces the same operations (and usually the failure). Sizes:
 * {@code -Dstress.operations} (default 100,000 here; {@code -Pstress-long}: 10,000,000) and
 * {@code -Dstress.seed} (default: a fresh seed, printed). The seed, the operation count and the
 * rate are printed at the end; a failure names the seed and the command that reruns it.
 */
@DisplayName("randomized scope stress: nothing lost or duplicated")
class RandomScopeStressTest {

    static final int WORKERS = 2;
    /** Operations per worker per round. */
    static final int ROUND = 2_000;
    static final long JOIN_TIMEOUT_SECONDS = 30;

    /** What a piece of work does once started. */
    enum Behaviour { INLINE_VALUE, INLINE_ERROR, ASYNC_VALUE, ASYNC_ERROR, UNTIL_STOPPED }

    /** The API a unit goes through. */
    enum Kind { SPAWN, NEST, FUTURE, REACTOR_SPAWN, REACTOR_NEST, RX_SPAWN }

    static final Behaviour[] BEHAVIOURS = Behaviour.values();
    static final Kind[] KINDS = Kind.values();

    /** A stackless error, one per unit, so that where it went can be checked by identity. */
    static final class UnitError extends RuntimeException {
        private static final long serialVersionUID = 1L;

        UnitError(int id) {
            super("unit " + id, null, false, false);
        }
    }

    /** One piece of work and everything observed about it. */
    static final class Unit {
        final int id;
        final Kind kind;
        final Behaviour behaviour;
        final UnitError error;
        /** Starts of the work (core) or subscriptions to it (adapters). */
        final AtomicInteger starts = new AtomicInteger();
        /** Ends of the work: its own signal, or the stop/cancel that ended it. */
        final AtomicInteger ends = new AtomicInteger();
        volatile String endedWith;
        /** Places the error reached, and the last of them. */
        final AtomicInteger errorSeen = new AtomicInteger();
        volatile String errorWent;
        /** For nest, future, nested Flux: the consumer's completions and the last one. */
        final AtomicInteger consumed = new AtomicInteger();
        volatile Object consumerGot;
        volatile boolean accepted;
        volatile boolean consumerStopped;
        /** The scope's stop was requested when the spawn returned. */
        volatile boolean scopeStopped;
        /** Claims the work's single completion between its async path and its stop callback. */
        final AtomicInteger claim = new AtomicInteger();

        Unit(int id, Kind kind, Behaviour behaviour) {
            this.id = id;
            this.kind = kind;
            this.behaviour = behaviour;
            this.error = new UnitError(id);
        }

        void seen(String where) {
            errorWent = where;
            errorSeen.incrementAndGet();
        }

        void end(String how) {
            endedWith = how;
            ends.incrementAndGet();
        }

        @Override
        public String toString() {
            return "unit " + id + " " + kind + "/" + behaviour + " accepted=" + accepted + " starts=" + starts
                    + " ends=" + ends + "(" + endedWith + ") errorSeen=" + errorSeen + "(" + errorWent + ") consumed=" + consumed
                    + "(" + consumerGot + ") consumerStopped=" + consumerStopped;
        }
    }

    static final String VALUE = "value", ERROR = "error", STOPPED = "stopped", CANCELLED = "cancelled";
    /** Where an error may go. */
    static final String SCOPE_HANDLER = "the scope's error handler", CONSUMER = "the consumer",
            HOOK = "dev.senders.Hooks.onErrorDropped", REACTOR_HOOK = "Reactor's onErrorDropped",
            RX_HOOK = "RxJavaPlugins.onError";

    private final ExecutorService pool = Executors.newFixedThreadPool(2, r -> {
        Thread t = new Thread(r, "stress-async");
        t.setDaemon(true);
        return t;
    });
    /** Tasks submitted to the pool and not yet finished: the end of a round waits for zero. */
    private final AtomicInteger asyncPending = new AtomicInteger();
    /** Errors by identity: the units they belong to. */
    private final Map<Throwable, Unit> errors = new ConcurrentHashMap<>();
    private final AtomicReference<Throwable> unexpected = new AtomicReference<>();

    @AfterEach
    void tearDown() {
        pool.shutdownNow();
        Hooks.resetOnErrorDropped();
        reactor.core.publisher.Hooks.resetOnErrorDropped();
        RxJavaPlugins.setErrorHandler(null);
    }

    private void seen(Throwable e, String where) {
        Throwable t = e instanceof UndeliverableException && e.getCause() != null ? e.getCause() : e;
        Unit u = errors.get(t);
        if (u == null) {
            unexpected.compareAndSet(null, new AssertionError("an unexpected error reached " + where + ": " + t, t));
        } else {
            u.seen(where);
        }
    }

    @Test
    @DisplayName("random spawn/nest/spawnFuture/stop/close/join across core, Reactor and RxJava: every unit ends exactly once")
    void everyUnitEndsExactlyOnce() throws Exception {
        long operations = Long.getLong("stress.operations", 100_000L);
        String seedProperty = System.getProperty("stress.seed", "");
        long seed = seedProperty.isEmpty() ? System.nanoTime() : Long.parseLong(seedProperty);
        Hooks.setOnErrorDropped(e -> seen(e, HOOK));
        reactor.core.publisher.Hooks.onErrorDropped(e -> seen(e, REACTOR_HOOK));
        RxJavaPlugins.setErrorHandler(e -> seen(e, RX_HOOK));

        long rounds = Math.max(1, (operations + WORKERS * ROUND - 1) / (WORKERS * ROUND));
        AtomicLong done = new AtomicLong();
        long t0 = System.nanoTime();
        for (long round = 0; round < rounds; round++) {
            try {
                done.addAndGet(round(seed, round));
            } catch (Throwable t) {
                throw new AssertionError("round " + round + " of seed " + seed + " failed; rerun with: mvn -B verify"
                        + " -pl stress -am -Dtest=RandomScopeStressTest -Dsurefire.failIfNoSpecifiedTests=false"
                        + " -Dstress.seed=" + seed + " -Dstress.operations=" + operations, t);
            }
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        System.out.printf("RandomScopeStressTest: seed %d, %,d scope operations in %,d rounds, %.1f s, %,.0f operations/s%n",
                seed, done.get(), rounds, seconds, done.get() / seconds);
    }

    /** One round: a fresh scope, the workers' operations, then close + stop + join and the audit. */
    private long round(long seed, long round) throws Exception {
        List<Unit> units = new ArrayList<>();
        CountingScope scope = new CountingScope(e -> seen(e, SCOPE_HANDLER));
        AsyncScopeToken token = scope.getToken();
        // an anchor association, released after the workers: joins started during the round wait
        // instead of ending the scope early
        token.tryAssociate();
        SplittableRandom roundRandom = new SplittableRandom(seed ^ (round * 0x9E3779B97F4A7C15L));
        // where (in operations of worker 0) this round stops and closes the scope, if it does
        int stopAt = roundRandom.nextInt(ROUND * 3);
        int closeAt = roundRandom.nextInt(ROUND * 3);
        AtomicInteger joinsStarted = new AtomicInteger();
        AtomicInteger joinsEnded = new AtomicInteger();
        AtomicInteger joinsEndedTwice = new AtomicInteger();
        List<List<Unit>> perWorker = new ArrayList<>();
        Thread[] threads = new Thread[WORKERS];
        AtomicReference<Throwable> workerFailure = new AtomicReference<>();
        CountDownLatch go = new CountDownLatch(1);
        for (int w = 0; w < WORKERS; w++) {
            List<Unit> mine = new ArrayList<>();
            perWorker.add(mine);
            int worker = w;
            SplittableRandom random = roundRandom.split();
            threads[w] = new Thread(() -> {
                try {
                    go.await();
                    List<Object> handles = new ArrayList<>();
                    for (int i = 0; i < ROUND; i++) {
                        if (worker == 0 && i == stopAt) {
                            scope.requestStop();
                            continue;
                        }
                        if (worker == 0 && i == closeAt) {
                            scope.close();
                            continue;
                        }
                        int op = random.nextInt(100);
                        if (op < 3) {
                            startJoin(scope, joinsStarted, joinsEnded, joinsEndedTwice);
                        } else if (op < 8 && !handles.isEmpty()) {
                            Object h = handles.get(random.nextInt(handles.size()));
                            if (h instanceof Disposable) {
                                ((Disposable) h).dispose();
                            } else {
                                ((io.reactivex.rxjava3.disposables.Disposable) h).dispose();
                            }
                        } else {
                            int id = worker * ROUND + i;
                            Unit u = new Unit(id, KINDS[random.nextInt(KINDS.length)],
                                    BEHAVIOURS[random.nextInt(BEHAVIOURS.length)]);
                            errors.put(u.error, u);
                            mine.add(u);
                            Object h = run(u, scope, random);
                            if (h != null) {
                                handles.add(h);
                            }
                        }
                    }
                } catch (Throwable t) {
                    workerFailure.compareAndSet(null, t);
                }
            }, "stress-worker-" + w);
            threads[w].start();
        }
        go.countDown();
        for (Thread t : threads) {
            t.join();
        }
        if (workerFailure.get() != null) {
            throw new AssertionError("a worker failed", workerFailure.get());
        }
        // the end of the round: refuse new work, stop what runs until stopped, release the anchor, join
        scope.close();
        scope.requestStop();
        token.dissociate();
        try {
            Senders.toCompletableFuture(scope.join()).get(JOIN_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            throw new AssertionError("the final join did not end within " + JOIN_TIMEOUT_SECONDS + " s: " + scope
                    + " (an association was lost)");
        }
        // the join ended once every association was released; the pool may still be returning
        // from the signals it delivered, or failing sources that were cancelled: let it finish
        awaitQuiescence();
        for (List<Unit> l : perWorker) {
            units.addAll(l);
        }
        audit(scope, units, joinsStarted.get(), joinsEnded.get(), joinsEndedTwice.get());
        if (unexpected.get() != null) {
            throw new AssertionError(unexpected.get());
        }
        for (Unit u : units) {
            errors.remove(u.error);
        }
        return (long) WORKERS * ROUND;
    }

    /** Waits (a test may poll) until the pool has run every task of the round. */
    private void awaitQuiescence() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(JOIN_TIMEOUT_SECONDS);
        while (asyncPending.get() != 0) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(asyncPending.get() + " asynchronous completions never ran");
            }
            Thread.sleep(1);
        }
    }

    /** Runs {@code task} on the pool, counted in {@link #asyncPending}. */
    private void async(Runnable task) {
        asyncPending.incrementAndGet();
        pool.execute(() -> {
            try {
                task.run();
            } finally {
                asyncPending.decrementAndGet();
            }
        });
    }

    private static void startJoin(CountingScope scope, AtomicInteger started, AtomicInteger ended, AtomicInteger twice) {
        started.incrementAndGet();
        AtomicInteger mine = new AtomicInteger();
        scope.join().connect(new Receiver<Void>() {
            @Override
            public void setValue(Void v) {
                if (mine.incrementAndGet() > 1) {
                    twice.incrementAndGet();
                }
                ended.incrementAndGet();
            }

            @Override
            public void setError(Throwable e) {
                twice.incrementAndGet(); // a join never fails: counted as a violation
            }

            @Override
            public void setStopped() {
                twice.incrementAndGet(); // nor stops
            }
        }).start();
    }

    /** Runs one unit through its API; returns a Disposable to dispose later, if any. */
    private Object run(Unit u, CountingScope scope, SplittableRandom random) {
        AsyncScopeToken token = scope.getToken();
        switch (u.kind) {
            case SPAWN:
                u.accepted = Scopes.spawn(work(u), token);
                return null;
            case NEST: {
                // start it now, or only once a later step of this worker would: here, at once
                Scopes.nest(work(u), token).connect(consumer(u, null)).start();
                u.accepted = u.starts.get() > 0;
                return null;
            }
            case FUTURE: {
                Sender<Integer> f = Scopes.spawnFuture(work(u), token);
                u.accepted = u.starts.get() > 0;
                InplaceStopSource stop = random.nextInt(4) == 0 ? new InplaceStopSource() : null;
                boolean stopFirst = stop != null && random.nextBoolean();
                if (stopFirst) {
                    u.consumerStopped = true;
                    stop.requestStop();
                }
                f.connect(consumer(u, stop == null ? null : stop.token())).start();
                if (stop != null && !stopFirst) {
                    u.consumerStopped = true;
                    stop.requestStop();
                }
                return null;
            }
            case REACTOR_SPAWN: {
                Disposable d = ReactorScopes.spawn(mono(u), token);
                u.accepted = d != ReactorScopes.REFUSED;
                u.scopeStopped = scope.stopToken().stopRequested();
                return d;
            }
            case REACTOR_NEST:
                ReactorScopes.nest(mono(u), token).subscribe(fluxConsumer(u));
                u.accepted = u.starts.get() > 0;
                return null;
            case RX_SPAWN: {
                io.reactivex.rxjava3.disposables.Disposable d = RxScopes.spawn(single(u), token);
                u.accepted = d != RxScopes.REFUSED;
                u.scopeStopped = scope.stopToken().stopRequested();
                return d;
            }
            default:
                throw new AssertionError(u.kind);
        }
    }

    /** The core work of a unit: a leaf sender that signals exactly once, as its behaviour says. */
    private Sender<Integer> work(Unit u) {
        return r -> (OperationState) () -> {
            u.starts.incrementAndGet();
            switch (u.behaviour) {
                case INLINE_VALUE:
                    u.end(VALUE);
                    r.setValue(u.id);
                    break;
                case INLINE_ERROR:
                    u.end(ERROR);
                    r.setError(u.error);
                    break;
                case ASYNC_VALUE:
                case ASYNC_ERROR:
                    async(() -> {
                        if (u.behaviour == Behaviour.ASYNC_VALUE) {
                            u.end(VALUE);
                            r.setValue(u.id);
                        } else {
                            u.end(ERROR);
                            r.setError(u.error);
                        }
                    });
                    break;
                default: // UNTIL_STOPPED
                    r.env().stopToken().onStop(() -> {
                        if (u.claim.getAndIncrement() == 0) {
                            u.end(STOPPED);
                            r.setStopped();
                        }
                    });
            }
        };
    }

    private static <T> Receiver<T> consumer(Unit u, StopToken stop) {
        Env env = stop == null ? Env.empty() : Env.of(Query.STOP_TOKEN, stop);
        return new Receiver<T>() {
            @Override
            public void setValue(T v) {
                u.consumerGot = v;
                u.consumed.incrementAndGet();
            }

            @Override
            public void setError(Throwable e) {
                u.consumerGot = e;
                if (e == u.error) {
                    u.seen(CONSUMER);
                }
                u.consumed.incrementAndGet();
            }

            @Override
            public void setStopped() {
                u.consumerGot = STOPPED;
                u.consumed.incrementAndGet();
            }

            @Override
            public Env env() {
                return env;
            }
        };
    }

    /** A Mono behaving as the unit says; its subscription's end (signal or cancel) is recorded once. */
    private Mono<Integer> mono(Unit u) {
        Mono<Integer> m;
        switch (u.behaviour) {
            case INLINE_VALUE:
                m = Mono.fromSupplier(() -> u.id);
                break;
            case INLINE_ERROR:
                m = Mono.error(u.error);
                break;
            case ASYNC_VALUE:
                m = Mono.create(sink -> async(() -> sink.success(u.id)));
                break;
            case ASYNC_ERROR:
                m = Mono.create(sink -> async(() -> sink.error(u.error)));
                break;
            default:
                m = Mono.never();
        }
        return m.doOnSubscribe(s -> u.starts.incrementAndGet())
                .doFinally(signal -> u.end(signal == reactor.core.publisher.SignalType.ON_COMPLETE ? VALUE
                        : signal == reactor.core.publisher.SignalType.ON_ERROR ? ERROR : CANCELLED));
    }

    private static CoreSubscriber<Integer> fluxConsumer(Unit u) {
        return new CoreSubscriber<Integer>() {
            @Override
            public void onSubscribe(Subscription s) {
                s.request(Long.MAX_VALUE);
            }

            @Override
            public void onNext(Integer v) {
                u.consumerGot = v;
            }

            @Override
            public void onError(Throwable e) {
                if (e == u.error) {
                    u.seen(CONSUMER);
                    u.consumerGot = e;
                } else {
                    u.consumerGot = STOPPED; // CancellationException: refused or stopped by the scope
                }
                u.consumed.incrementAndGet();
            }

            @Override
            public void onComplete() {
                if (u.consumerGot == null) {
                    u.consumerGot = VALUE; // an empty completion (never expected here)
                }
                u.consumed.incrementAndGet();
            }
        };
    }

    /** A Single behaving as the unit says; its end (signal or dispose) is recorded once. */
    private Single<Integer> single(Unit u) {
        Single<Integer> s;
        switch (u.behaviour) {
            case INLINE_VALUE:
                s = Single.fromCallable(() -> u.id);
                break;
            case INLINE_ERROR:
                s = Single.error(u.error);
                break;
            case ASYNC_VALUE:
                s = Single.create(e -> async(() -> e.onSuccess(u.id)));
                break;
            case ASYNC_ERROR:
                s = Single.create(e -> async(() -> e.onError(u.error)));
                break;
            default:
                s = Single.never();
        }
        AtomicReference<String> how = new AtomicReference<>(CANCELLED);
        return s.doOnSubscribe(d -> u.starts.incrementAndGet())
                .doOnSuccess(v -> how.set(VALUE))
                .doOnError(e -> how.set(ERROR))
                .doFinally(() -> u.end(how.get()));
    }

    private static void audit(CountingScope scope, List<Unit> units, int joinsStarted, int joinsEnded,
            int joinViolations) {
        if (scope.count() != 0 || scope.state() != ScopeState.JOINED) {
            fail("after the final join: " + scope);
        }
        if (joinViolations != 0 || joinsEnded != joinsStarted) {
            fail(joinsStarted + " joins started, " + joinsEnded + " ended, " + joinViolations + " ended twice or badly");
        }
        for (Unit u : units) {
            String problem = check(u);
            if (problem != null) {
                fail(problem + ": " + u);
            }
        }
    }

    /**
     * Where a unit's error may go: its consumer (nest, future) or the scope's handler (spawn), or,
     * when a stop or dispose won the race and nobody is left to take it, the dropped-error hook of
     * the API the work came through. Which of these it was depends on timing; that it was exactly
     * one of them does not.
     */
    private static boolean allowed(Unit u, String where) {
        switch (u.kind) {
            case SPAWN:
                return SCOPE_HANDLER.equals(where);
            case REACTOR_SPAWN:
                return SCOPE_HANDLER.equals(where) || REACTOR_HOOK.equals(where);
            case RX_SPAWN:
                return SCOPE_HANDLER.equals(where) || RX_HOOK.equals(where);
            case REACTOR_NEST:
                return CONSUMER.equals(where) || REACTOR_HOOK.equals(where) && u.consumerGot == STOPPED;
            case FUTURE: // an error no consumer takes goes to the scope's handler, as a spawned error does
                return CONSUMER.equals(where) || SCOPE_HANDLER.equals(where) && u.consumerGot == STOPPED;
            default: // NEST
                return CONSUMER.equals(where) || HOOK.equals(where) && u.consumerGot == STOPPED;
        }
    }

    /** What is wrong with a unit's story, or null. */
    private static String check(Unit u) {
        int starts = u.starts.get();
        int ends = u.ends.get();
        boolean consumerKind = u.kind == Kind.NEST || u.kind == Kind.FUTURE || u.kind == Kind.REACTOR_NEST;
        if (!u.accepted) {
            if (starts != 0 || ends != 0) {
                return "refused work ran";
            }
            if (consumerKind && (u.consumed.get() != 1 || u.consumerGot != STOPPED)) {
                return "the consumer of refused work did not get exactly one stop";
            }
            return null;
        }
        if (starts == 0 && ends == 0 && u.scopeStopped) {
            return null; // adapter work accepted as the scope was being stopped: stopped before subscribing
        }
        if (starts != 1 || ends != 1) {
            return "accepted work did not start and end exactly once";
        }
        boolean failed = ERROR.equals(u.endedWith);
        // a Mono/Single whose cancel raced its error: the error reaches the adapter after the
        // cancel (undeliverable: to Reactor's or RxJava's hook) or never leaves the source (what
        // a cancelled source does with it is the source library's rule: Reactor's Mono.create
        // passes it to the onOperatorError hook, which this test does not install)
        boolean failsAfterCancel = CANCELLED.equals(u.endedWith)
                && (u.behaviour == Behaviour.INLINE_ERROR || u.behaviour == Behaviour.ASYNC_ERROR);
        if (failed && u.errorSeen.get() != 1) {
            return "the work's error reached " + u.errorSeen.get() + " places instead of 1";
        }
        if (failsAfterCancel ? u.errorSeen.get() > 1 : !failed && u.errorSeen.get() != 0) {
            return "an error was reported for work that did not fail, or twice";
        }
        if (u.errorSeen.get() == 1 && !allowed(u, u.errorWent)) {
            return "the work's error went to " + u.errorWent;
        }
        if (!consumerKind) {
            return null;
        }
        if (u.consumed.get() != 1) {
            return "the consumer completed " + u.consumed.get() + " times";
        }
        // what the work ended with, or stopped: a consumer's or the scope's stop may win the race
        Object got = u.consumerGot;
        switch (u.endedWith) {
            case VALUE:
                return Integer.valueOf(u.id).equals(got) || got == STOPPED ? null
                        : "the consumer did not get the work's value";
            case ERROR:
                return got == u.error || got == STOPPED ? null : "the consumer did not get the work's error";
            default: // the work was stopped or cancelled
                return got == STOPPED ? null : "the consumer of stopped work got " + got;
        }
    }
}
