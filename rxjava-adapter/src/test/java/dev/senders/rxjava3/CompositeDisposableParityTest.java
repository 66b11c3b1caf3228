package dev.senders.rxjava3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.scope.CountingScope;
import io.reactivex.rxjava3.disposables.CompositeDisposable;
import io.reactivex.rxjava3.disposables.Disposable;
import io.reactivex.rxjava3.exceptions.CompositeException;
import java.io.IOException;
import java.util.List;
import dev.senders.testkit.DisposeProbe;
import java.util.function.Function;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code RxScopes.asContainer(scope)} is a drop-in for RxJava's {@link CompositeDisposable}: one
 * test per rule of {@code CompositeDisposable}'s contract, each run against RxJava's own class and
 * against the scope's view, so passing proves "same behaviour" (results, exception types, behaviour
 * after dispose).
 */
class CompositeDisposableParityTest {

    /** The methods the two types share, as the test calls them. */
    interface Subject {
        boolean add(Disposable d);

        boolean addAll(Disposable... ds);

        boolean remove(Disposable d);

        boolean delete(Disposable d);

        void clear();

        int size();

        void dispose();

        boolean isDisposed();
    }

    static Subject of(CompositeDisposable c) {
        return new Subject() {
            public boolean add(Disposable d) { return c.add(d); }
            public boolean addAll(Disposable... ds) { return c.addAll(ds); }
            public boolean remove(Disposable d) { return c.remove(d); }
            public boolean delete(Disposable d) { return c.delete(d); }
            public void clear() { c.clear(); }
            public int size() { return c.size(); }
            public void dispose() { c.dispose(); }
            public boolean isDisposed() { return c.isDisposed(); }
        };
    }

    static Subject of(ScopeContainer c) {
        return new Subject() {
            public boolean add(Disposable d) { return c.add(d); }
            public boolean addAll(Disposable... ds) { return c.addAll(ds); }
            public boolean remove(Disposable d) { return c.remove(d); }
            public boolean delete(Disposable d) { return c.delete(d); }
            public void clear() { c.clear(); }
            public int size() { return c.size(); }
            public void dispose() { c.dispose(); }
            public boolean isDisposed() { return c.isDisposed(); }
        };
    }

    /** Both types, each built with the given initial members. */
    static List<Arguments> containers() {
        Function<Disposable[], Subject> rx = ds -> of(new CompositeDisposable(ds));
        Function<Disposable[], Subject> view = ds -> of(RxScopes.asContainer(new CountingScope(), ds));
        return List.of(Arguments.of("CompositeDisposable", rx), Arguments.of("RxScopes.asContainer", view));
    }

    static Subject empty(Function<Disposable[], Subject> make) {
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
    @MethodSource("containers")
    void addHoldsTheDisposableWithoutDisposingIt(String name, Function<Disposable[], Subject> make) {
        Subject c = empty(make);
        Member m = new Member();
        assertTrue(c.add(m));
        assertEquals(1, c.size());
        assertEquals(0, m.probe.disposals());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("containers")
    void addingAHeldDisposableAgainReturnsTrueAndHoldsItOnce(String name, Function<Disposable[], Subject> make) {
        Subject c = empty(make);
        Member m = new Member();
        c.add(m);
        assertTrue(c.add(m));
        assertEquals(1, c.size());
        c.dispose();
        assertEquals(1, m.probe.disposals());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("containers")
    void removeDisposesAHeldDisposableAndForgetsIt(String name, Function<Disposable[], Subject> make) {
        Subject c = empty(make);
        Member m = new Member();
        c.add(m);
        assertTrue(c.remove(m));
        assertEquals(1, m.probe.disposals());
        assertEquals(0, c.size());
        assertFalse(c.remove(m));
        assertEquals(1, m.probe.disposals());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("containers")
    void removeOrDeleteOfADisposableNotHeldReturnsFalseAndDoesNotDisposeIt(String name,
            Function<Disposable[], Subject> make) {
        Subject c = empty(make);
        Member m = new Member();
        assertFalse(c.remove(m));
        assertFalse(c.delete(m));
        assertEquals(0, m.probe.disposals());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("containers")
    void deleteForgetsAHeldDisposableWithoutDisposingIt(String name, Function<Disposable[], Subject> make) {
        Subject c = empty(make);
        Member m = new Member();
        c.add(m);
        assertTrue(c.delete(m));
        assertEquals(0, m.probe.disposals());
        assertEquals(0, c.size());
        assertFalse(c.delete(m));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("containers")
    void clearDisposesEveryHeldDisposableAndStaysUsable(String name, Function<Disposable[], Subject> make) {
        Subject c = empty(make);
        Member a = new Member();
        Member b = new Member();
        c.addAll(a, b);
        c.clear();
        assertEquals(1, a.probe.disposals());
        assertEquals(1, b.probe.disposals());
        assertEquals(0, c.size());
        assertFalse(c.isDisposed());
        Member later = new Member();
        assertTrue(c.add(later));
        assertEquals(0, later.probe.disposals());
        assertEquals(1, c.size());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("containers")
    void disposeDisposesEveryHeldDisposableOnceAndIsIdempotent(String name, Function<Disposable[], Subject> make) {
        Subject c = empty(make);
        Member a = new Member();
        Member b = new Member();
        c.add(a);
        c.add(b);
        assertFalse(c.isDisposed());
        c.dispose();
        assertTrue(c.isDisposed());
        c.dispose();
        assertEquals(1, a.probe.disposals());
        assertEquals(1, b.probe.disposals());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("containers")
    void addAfterDisposeDisposesTheArgumentAndReturnsFalse(String name, Function<Disposable[], Subject> make) {
        Subject c = empty(make);
        c.dispose();
        Member m = new Member();
        assertFalse(c.add(m));
        assertEquals(1, m.probe.disposals());
        assertEquals(0, c.size());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("containers")
    void addAllAfterDisposeDisposesEveryArgumentAndReturnsFalse(String name, Function<Disposable[], Subject> make) {
        Subject c = empty(make);
        c.dispose();
        Member a = new Member();
        Member b = new Member();
        assertFalse(c.addAll(a, b));
        assertEquals(1, a.probe.disposals());
        assertEquals(1, b.probe.disposals());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("containers")
    void addAllHoldsEveryArgument(String name, Function<Disposable[], Subject> make) {
        Subject c = empty(make);
        assertTrue(c.addAll(new Member(), new Member(), new Member()));
        assertEquals(3, c.size());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("containers")
    void afterDisposeRemoveDeleteAndClearDoNothingAndSizeIsZero(String name, Function<Disposable[], Subject> make) {
        Member m = new Member();
        Subject c = make.apply(new Disposable[] {m});
        c.dispose();
        assertEquals(0, c.size());
        assertFalse(c.remove(m));
        assertFalse(c.delete(m));
        c.clear();
        assertEquals(1, m.probe.disposals());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("containers")
    void constructionWithInitialMembersHoldsThem(String name, Function<Disposable[], Subject> make) {
        Member a = new Member();
        Member b = new Member();
        Subject c = make.apply(new Disposable[] {a, b});
        assertEquals(2, c.size());
        assertEquals(0, a.probe.disposals());
        c.dispose();
        assertEquals(1, a.probe.disposals());
        assertEquals(1, b.probe.disposals());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("containers")
    void nullArgumentsAreRejectedWithNullPointerException(String name, Function<Disposable[], Subject> make) {
        Subject c = empty(make);
        assertEquals("disposable is null", assertThrows(NullPointerException.class, () -> c.add(null)).getMessage());
        assertEquals("disposable is null", assertThrows(NullPointerException.class, () -> c.remove(null)).getMessage());
        assertEquals("disposable is null", assertThrows(NullPointerException.class, () -> c.delete(null)).getMessage());
        assertThrows(NullPointerException.class, () -> c.addAll(new Member(), null));
        assertThrows(NullPointerException.class, () -> make.apply(new Disposable[] {new Member(), null}));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("containers")
    void aSingleRuntimeExceptionFromAMemberIsRethrownAsIsAfterTheOthersWereDisposed(String name,
            Function<Disposable[], Subject> make) {
        IllegalStateException boom = new IllegalStateException("boom");
        Member bad = new Member(boom);
        Member good = new Member();
        Subject c = make.apply(new Disposable[] {bad, good});
        assertSame(boom, assertThrows(IllegalStateException.class, c::dispose));
        assertEquals(1, good.probe.disposals());
        assertTrue(c.isDisposed());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("containers")
    void aSingleErrorFromAMemberIsRethrownAsIs(String name, Function<Disposable[], Subject> make) {
        AssertionError boom = new AssertionError("an Error");
        Subject c = make.apply(new Disposable[] {new Member(boom), new Member()});
        assertSame(boom, assertThrows(AssertionError.class, c::dispose));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("containers")
    void aSingleCheckedExceptionFromAMemberIsWrappedInARuntimeException(String name,
            Function<Disposable[], Subject> make) {
        IOException checked = new IOException("checked");
        Subject c = make.apply(new Disposable[] {new Member(checked)});
        RuntimeException e = assertThrows(RuntimeException.class, c::dispose);
        assertSame(RuntimeException.class, e.getClass());
        assertSame(checked, e.getCause());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("containers")
    void severalFailuresBecomeOneCompositeExceptionAfterEveryMemberWasDisposed(String name,
            Function<Disposable[], Subject> make) {
        IllegalStateException a = new IllegalStateException("a");
        AssertionError b = new AssertionError("b");
        Member ma = new Member(a);
        Member mb = new Member(b);
        Member ok = new Member();
        Subject c = make.apply(new Disposable[] {ma, mb, ok});
        CompositeException e = assertThrows(CompositeException.class, c::dispose);
        assertEquals(2, e.size());
        assertTrue(e.getExceptions().containsAll(List.of(a, b)));
        assertEquals(1, ok.probe.disposals());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("containers")
    void clearRethrowsByTheSameRules(String name, Function<Disposable[], Subject> make) {
        AssertionError boom = new AssertionError("an Error");
        Subject c = make.apply(new Disposable[] {new Member(boom)});
        assertSame(boom, assertThrows(AssertionError.class, c::clear));
        assertFalse(c.isDisposed());
        Subject two = make.apply(new Disposable[] {new Member(new IllegalStateException()), new Member(boom)});
        assertInstanceOf(CompositeException.class, assertThrows(RuntimeException.class, two::clear));
    }
}
