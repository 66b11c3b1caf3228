package dev.senders.reactor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.scope.CountingScope;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import dev.senders.testkit.DisposeProbe;
import java.util.function.Function;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import reactor.core.Disposable;
import reactor.core.Disposables;
import reactor.core.Exceptions;

/**
 * {@code ReactorScopes.asComposite(scope)} is a drop-in for Reactor's {@code Disposables.composite()}
 * ({@link Disposable.Composite}): one test per rule of that contract, each run against Reactor's
 * own composite and against the scope's view, so passing proves "same behaviour" (results,
 * exception types, behaviour after dispose).
 */
class DisposablesCompositeParityTest {

    /** Both types, each built from the given initial members (varargs and iterable constructions). */
    static List<Arguments> composites() {
        Function<Disposable[], Disposable.Composite> reactor = Disposables::composite;
        Function<Disposable[], Disposable.Composite> reactorIterable = ds -> Disposables.composite(Arrays.asList(ds));
        Function<Disposable[], Disposable.Composite> view = ds -> ReactorScopes.asComposite(new CountingScope(), ds);
        Function<Disposable[], Disposable.Composite> viewIterable = ds -> ReactorScopes.asComposite(new CountingScope(),
                Arrays.asList(ds));
        return List.of(
                Arguments.of("Disposables.composite(d...)", reactor),
                Arguments.of("Disposables.composite(Iterable)", reactorIterable),
                Arguments.of("ReactorScopes.asComposite(scope, d...)", view),
                Arguments.of("ReactorScopes.asComposite(scope, Iterable)", viewIterable));
    }

    static Disposable.Composite empty(Function<Disposable[], Disposable.Composite> make) {
        return make.apply(new Disposable[0]);
    }

    /** A member that counts how often it was disposed and may throw from dispose (a testkit probe). */
    static final class Member implements Disposable {
        final DisposeProbe probe;

        Member() {
            this(null);
        }

        Member(Throwable failure) {
            this.probe = new DisposeProbe(failure);
        }

        @Override
        public void dispose() {
            probe.dispose();
        }

        @Override
        public boolean isDisposed() {
            return probe.isDisposed();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("composites")
    void addHoldsTheDisposableWithoutDisposingIt(String name, Function<Disposable[], Disposable.Composite> make) {
        Disposable.Composite c = empty(make);
        Member m = new Member();
        assertTrue(c.add(m));
        assertEquals(1, c.size());
        assertEquals(0, m.probe.disposals());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("composites")
    void addingADisposableTwiceHoldsItTwiceAndDisposesEachOccurrence(String name,
            Function<Disposable[], Disposable.Composite> make) {
        Disposable.Composite c = empty(make);
        Member m = new Member();
        assertTrue(c.add(m));
        assertTrue(c.add(m));
        assertEquals(2, c.size());
        c.dispose();
        assertEquals(2, m.probe.disposals());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("composites")
    void removeForgetsOneOccurrenceWithoutDisposingIt(String name, Function<Disposable[], Disposable.Composite> make) {
        Disposable.Composite c = empty(make);
        Member m = new Member();
        c.add(m);
        c.add(m);
        assertTrue(c.remove(m));
        assertEquals(1, c.size());
        assertTrue(c.remove(m));
        assertFalse(c.remove(m));
        assertEquals(0, c.size());
        assertEquals(0, m.probe.disposals());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("composites")
    void removeOfADisposableNotHeldReturnsFalse(String name, Function<Disposable[], Disposable.Composite> make) {
        assertFalse(empty(make).remove(new Member()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("composites")
    void disposeDisposesEveryHeldDisposableAndIsIdempotent(String name,
            Function<Disposable[], Disposable.Composite> make) {
        Member a = new Member();
        Member b = new Member();
        Disposable.Composite c = make.apply(new Disposable[] {a, b});
        assertFalse(c.isDisposed());
        c.dispose();
        c.dispose();
        assertTrue(c.isDisposed());
        assertEquals(1, a.probe.disposals());
        assertEquals(1, b.probe.disposals());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("composites")
    void addAfterDisposeDisposesTheArgumentAndReturnsFalse(String name,
            Function<Disposable[], Disposable.Composite> make) {
        Disposable.Composite c = empty(make);
        c.dispose();
        Member m = new Member();
        assertFalse(c.add(m));
        assertEquals(1, m.probe.disposals());
        assertEquals(0, c.size());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("composites")
    void addAllAfterDisposeDisposesEveryArgumentAndReturnsFalse(String name,
            Function<Disposable[], Disposable.Composite> make) {
        Disposable.Composite c = empty(make);
        c.dispose();
        Member a = new Member();
        Member b = new Member();
        assertFalse(c.addAll(List.of(a, b)));
        assertEquals(1, a.probe.disposals());
        assertEquals(1, b.probe.disposals());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("composites")
    void addAllHoldsEveryArgument(String name, Function<Disposable[], Disposable.Composite> make) {
        Disposable.Composite c = empty(make);
        assertTrue(c.addAll(List.of(new Member(), new Member(), new Member())));
        assertEquals(3, c.size());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("composites")
    void afterDisposeRemoveReturnsFalseAndSizeIsZero(String name, Function<Disposable[], Disposable.Composite> make) {
        Member m = new Member();
        Disposable.Composite c = make.apply(new Disposable[] {m});
        c.dispose();
        assertEquals(0, c.size());
        assertFalse(c.remove(m));
        assertEquals(1, m.probe.disposals());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("composites")
    void constructionWithInitialMembersHoldsThem(String name, Function<Disposable[], Disposable.Composite> make) {
        Member a = new Member();
        Member b = new Member();
        Disposable.Composite c = make.apply(new Disposable[] {a, b});
        assertEquals(2, c.size());
        assertEquals(0, a.probe.disposals());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("composites")
    void nullArgumentsAreRejectedWithNullPointerException(String name,
            Function<Disposable[], Disposable.Composite> make) {
        Disposable.Composite c = empty(make);
        assertThrows(NullPointerException.class, () -> c.add(null));
        assertThrows(NullPointerException.class, () -> c.remove(null));
        List<Disposable> withNull = new ArrayList<>();
        withNull.add(new Member());
        withNull.add(null);
        assertThrows(NullPointerException.class, () -> c.addAll(withNull));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("composites")
    void aSingleRuntimeExceptionFromAMemberIsRethrownAsIsAfterTheOthersWereDisposed(String name,
            Function<Disposable[], Disposable.Composite> make) {
        IllegalStateException boom = new IllegalStateException("boom");
        Member good = new Member();
        Disposable.Composite c = make.apply(new Disposable[] {new Member(boom), good});
        assertSame(boom, assertThrows(IllegalStateException.class, c::dispose));
        assertEquals(1, good.probe.disposals());
        assertTrue(c.isDisposed());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("composites")
    void aSingleErrorOrCheckedExceptionIsWrappedAsExceptionsPropagateDoes(String name,
            Function<Disposable[], Disposable.Composite> make) {
        AssertionError error = new AssertionError("an Error");
        RuntimeException e = assertThrows(RuntimeException.class, make.apply(new Disposable[] {new Member(error)})::dispose);
        assertSame(Exceptions.propagate(error).getClass(), e.getClass());
        assertSame(error, Exceptions.unwrap(e));
        IOException checked = new IOException("checked");
        RuntimeException c = assertThrows(RuntimeException.class, make.apply(new Disposable[] {new Member(checked)})::dispose);
        assertSame(checked, Exceptions.unwrap(c));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("composites")
    void severalFailuresBecomeOneExceptionsMultipleAfterEveryMemberWasDisposed(String name,
            Function<Disposable[], Disposable.Composite> make) {
        IllegalStateException a = new IllegalStateException("a");
        IllegalArgumentException b = new IllegalArgumentException("b");
        Member ok = new Member();
        Disposable.Composite c = make.apply(new Disposable[] {new Member(a), new Member(b), ok});
        RuntimeException e = assertThrows(RuntimeException.class, c::dispose);
        assertTrue(Exceptions.isMultiple(e), e.toString());
        assertTrue(Exceptions.unwrapMultiple(e).containsAll(List.of(a, b)));
        assertEquals(1, ok.probe.disposals());
    }
}
