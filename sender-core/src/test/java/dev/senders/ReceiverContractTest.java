package dev.senders;

import static dev.senders.Senders.just;
import static dev.senders.Senders.justError;
import static dev.senders.Senders.justStopped;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.senders.testkit.TestReceiver;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** P2300R3 [exec.recv] / [exec.op_state]: the receiver contract, for every algorithm. */
class ReceiverContractTest {

    /** Each algorithm applied to a source; the source is counted so that side effects show. */
    static Stream<Arguments> algorithms() {
        return Stream.of(
                alg("then", s -> s.then(x -> x + 1)),
                alg("uponError", s -> s.uponError(e -> 0)),
                alg("uponStopped", s -> s.uponStopped(() -> 0)),
                alg("letValue", s -> s.letValue(x -> just(x + 1))),
                alg("letError", s -> s.letError(e -> just(0))),
                alg("letStopped", s -> s.letStopped(() -> just(0))),
                alg("startsOn", s -> s.startsOn(Schedulers.inline())),
                alg("continuesOn", s -> s.continuesOn(Schedulers.trampoline())),
                alg("stoppedAsOptional", s -> s.stoppedAsOptional().then(o -> o.orElse(0))),
                alg("stoppedAsError", s -> s.stoppedAsError(IllegalStateException::new)),
                alg("stopWhen", s -> s.stopWhen(new InplaceStopSource().token())),
                alg("whenAll", s -> Senders.whenAll(s, just(2)).then(l -> l.get(0))),
                alg("whenAll(a, b, combiner)", s -> Senders.whenAll(s, just(2), Integer::sum)),
                alg("whenAny", s -> Senders.whenAny(s, justStopped())));
    }

    private static Arguments alg(String name, Function<Sender<Integer>, Sender<Integer>> f) {
        return Arguments.of(name, f);
    }

    private static final class CountingSender implements Sender<Integer> {
        final AtomicInteger connects = new AtomicInteger();
        final AtomicInteger starts = new AtomicInteger();

        @Override
        public OperationState connect(Receiver<? super Integer> r) {
            connects.incrementAndGet();
            return () -> {
                starts.incrementAndGet();
                r.setValue(1);
            };
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("algorithms")
    @DisplayName("[exec.recv] no signal before start, exactly one after")
    void noSignalBeforeStart_exactlyOneAfter(String name, Function<Sender<Integer>, Sender<Integer>> alg) {
        for (Sender<Integer> source : List.of(just(1), Senders.<Integer>justError(new RuntimeException("e")),
                Senders.<Integer>justStopped())) {
            TestReceiver<Integer> r = new TestReceiver<>();
            OperationState op = alg.apply(source).connect(r);
            assertEquals(0, r.completions(), name + ": signal before start");
            op.start();
            assertEquals(1, r.completions(), name + ": " + r.signals());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("algorithms")
    @DisplayName("[exec.snd] connect has no side effects; dropping an unstarted operation sends nothing")
    void connectHasNoSideEffects_droppedOperationSendsNothing(String name,
            Function<Sender<Integer>, Sender<Integer>> alg) {
        CountingSender source = new CountingSender();
        AtomicInteger userCode = new AtomicInteger();
        Sender<Integer> s = alg.apply(source).then(x -> userCode.incrementAndGet());
        TestReceiver<Integer> r = new TestReceiver<>();
        s.connect(r); // dropped
        assertEquals(0, source.starts.get(), name);
        assertEquals(0, userCode.get(), name);
        assertEquals(0, r.completions(), name);
        // multi-shot: each connect is an independent run
        s.connect(new TestReceiver<>()).start();
        s.connect(new TestReceiver<>()).start();
        assertEquals(2, source.starts.get(), name);
    }

    static Stream<Arguments> throwingUserCode() {
        RuntimeException boom = new IllegalStateException("boom");
        return Stream.of(
                Arguments.of("then", just(1).then(x -> { throw boom; })),
                Arguments.of("uponError", Senders.<Integer>justError(new RuntimeException()).uponError(e -> { throw boom; })),
                Arguments.of("uponStopped", Senders.<Integer>justStopped().uponStopped(() -> { throw boom; })),
                Arguments.of("letValue", just(1).letValue(x -> { throw boom; })),
                Arguments.of("letError", Senders.<Integer>justError(new RuntimeException()).letError(e -> { throw boom; })),
                Arguments.of("letStopped", Senders.<Integer>justStopped().letStopped(() -> { throw boom; })),
                Arguments.of("stoppedAsError", Senders.<Integer>justStopped().stoppedAsError(() -> { throw boom; })),
                Arguments.of("whenAll combiner", Senders.whenAll(just(1), just(2), (a, b) -> { throw boom; })),
                Arguments.of("fromCompletionStage supplier",
                        Senders.fromCompletionStage(() -> { throw boom; })),
                Arguments.of("startsOn rejecting executor", just(1).startsOn(Schedulers.fromExecutor(t -> { throw boom; }))),
                Arguments.of("continuesOn rejecting executor",
                        just(1).continuesOn(Schedulers.fromExecutor(t -> { throw boom; }))),
                Arguments.of("continuesOn schedule() throws", just(1).continuesOn(() -> { throw boom; })),
                Arguments.of("read", Senders.read(Query.of("q", 0)).letValue(x -> { throw boom; })))
                .map(a -> Arguments.of(a.get()[0], a.get()[1], boom));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("throwingUserCode")
    @DisplayName("[exec.recv] user code that throws inside an algorithm becomes setError")
    void userCodeThatThrowsBecomesSetError(String name, Sender<?> s, RuntimeException boom) {
        TestReceiver<Object> r = new TestReceiver<>();
        s.connect(r).start();
        TestReceiver.Signal sig = r.single();
        assertEquals(TestReceiver.Kind.ERROR, sig.kind(), name);
        assertSame(boom, sig.payload(), name);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("algorithms")
    @DisplayName("[exec.recv] a receiver that throws from setValue gets that exception through setError")
    void receiverThrowingFromSetValueGetsSetError(String name, Function<Sender<Integer>, Sender<Integer>> alg) {
        RuntimeException refused = new RuntimeException("refused");
        TestReceiver<Integer> inner = new TestReceiver<>();
        Receiver<Integer> r = new Receiver<>() {
            @Override
            public void setValue(Integer value) {
                throw refused;
            }

            @Override
            public void setError(Throwable error) {
                inner.setError(error);
            }

            @Override
            public void setStopped() {
                inner.setStopped();
            }
        };
        alg.apply(just(1)).connect(r).start();
        TestReceiver.Signal sig = inner.single();
        assertEquals(TestReceiver.Kind.ERROR, sig.kind(), name);
        assertSame(refused, sig.payload(), name);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("algorithms")
    @DisplayName("[exec.recv] the downstream env is forwarded to the source")
    void envIsForwardedToTheSource(String name, Function<Sender<Integer>, Sender<Integer>> alg) {
        Query<Integer> key = Query.of("user-key", -1);
        Sender<Integer> probe = Senders.read(key);
        TestReceiver<Integer> r = new TestReceiver<>(Env.of(key, 42));
        alg.apply(probe).connect(r).start();
        TestReceiver.Signal sig = r.single();
        assertEquals(TestReceiver.Kind.VALUE, sig.kind(), name);
        // every algorithm above maps the source value 42 to something; only the read matters:
        // then(x+1)=43, whenAll/whenAny/... keep 42, combiner 44, stoppedAsOptional 42
        Object v = sig.payload();
        boolean ok = v.equals(42) || v.equals(43) || v.equals(44);
        assertEquals(true, ok, name + " got " + v);
    }

    @org.junit.jupiter.api.Test
    @DisplayName("[exec.stopped_as_optional] value, stopped and error")
    void stoppedAsOptional_valueStoppedError() {
        assertEquals(Optional.of(1), Senders.syncWait(just(1).stoppedAsOptional()));
        assertEquals(Optional.empty(), Senders.syncWait(Senders.<Integer>justStopped().stoppedAsOptional()));
        assertEquals(Optional.empty(), Senders.syncWait(Senders.<Integer>just(null).stoppedAsOptional()));
        RuntimeException e = new RuntimeException();
        TestReceiver<Optional<Integer>> r = new TestReceiver<>();
        Senders.<Integer>justError(e).stoppedAsOptional().connect(r).start();
        assertSame(e, r.single().payload());
    }

    @org.junit.jupiter.api.Test
    @DisplayName("CompletableFuture sources obey the contract too")
    void fromCompletionStage_noSignalBeforeStart() {
        TestReceiver<Integer> r = new TestReceiver<>();
        OperationState op = Senders.fromCompletionStage(CompletableFuture.completedFuture(1)).connect(r);
        assertEquals(0, r.completions());
        op.start();
        assertEquals(1, r.single().payload());
    }

    static { // keep the helpers referenced
        justError(new RuntimeException());
    }
}
