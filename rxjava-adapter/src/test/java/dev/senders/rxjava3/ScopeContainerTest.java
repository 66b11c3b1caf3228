package dev.senders.rxjava3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.scope.CountingScope;
import dev.senders.scope.ScopeState;
import dev.senders.testkit.TestReceiver;
import io.reactivex.rxjava3.core.Completable;
import io.reactivex.rxjava3.disposables.Disposable;
import io.reactivex.rxjava3.disposables.DisposableContainer;
import io.reactivex.rxjava3.exceptions.CompositeException;
import io.reactivex.rxjava3.processors.PublishProcessor;
import io.reactivex.rxjava3.subjects.CompletableSubject;
import io.reactivex.rxjava3.subjects.MaybeSubject;
import io.reactivex.rxjava3.subjects.PublishSubject;
import io.reactivex.rxjava3.subjects.SingleSubject;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** {@link RxScopes#asContainer}: CompositeDisposable's meaning, plus association with the scope. */
class ScopeContainerTest {

    private PluginErrors plugin;
    private CountingScope scope;
    private ScopeContainer container;

    @BeforeEach
    void setUp() {
        plugin = new PluginErrors();
        scope = new CountingScope();
        container = RxScopes.asContainer(scope);
    }

    @AfterEach
    void tearDown() {
        container.dispose();
        TestReceiver.start(scope.join()).await().assertValue(null);
        plugin.close();
        assertEquals(List.of(), plugin.errors);
    }

    @Test
    @DisplayName("add = tryAssociate + hold: join waits until the held Disposable is removed")
    void add_associatesAndJoinWaitsForRemove() {
        Disposable d = Disposable.empty();
        assertTrue(container.add(d));
        assertEquals(1, scope.count());
        assertEquals(1, container.size());
        assertEquals(ScopeState.OPEN, scope.state());
        TestReceiver<Void> join = TestReceiver.start(container.join());
        assertFalse(join.isDone());
        assertTrue(container.remove(d));
        assertTrue(d.isDisposed(), "remove disposes, like CompositeDisposable.remove");
        join.await().assertValue(null);
        assertEquals(0, scope.count());
        assertEquals(0, container.size());
        assertFalse(container.remove(d), "not held any more");
    }

    @Test
    @DisplayName("delete = forget + dissociate without disposing (DisposableContainer.delete)")
    void delete_dissociatesWithoutDisposing() {
        Disposable d = Disposable.empty();
        container.add(d);
        assertTrue(container.delete(d));
        assertFalse(d.isDisposed());
        assertEquals(0, scope.count());
        assertEquals(0, container.size());
        assertFalse(container.delete(d));
        assertFalse(container.delete(Disposable.empty()));
    }

    @Test
    @DisplayName("adding a held Disposable again holds it once (a set) and associates once")
    void add_twice_isOneAssociation() {
        Disposable d = Disposable.empty();
        assertTrue(container.add(d));
        assertTrue(container.add(d));
        assertEquals(1, scope.count());
        assertEquals(1, container.size());
        container.delete(d);
        assertEquals(0, scope.count());
    }

    @Test
    @DisplayName("dispose = close + dispose all held (dissociating each) + requestStop")
    void dispose_closesDisposesHeldAndRequestsStop() {
        Disposable a = Disposable.empty();
        Disposable b = Disposable.empty();
        container.add(a);
        container.add(b);
        Disposable spawned = RxScopes.spawn(Completable.never(), scope.getToken());
        assertEquals(3, scope.count());
        container.dispose();
        assertTrue(container.isDisposed());
        assertTrue(a.isDisposed());
        assertTrue(b.isDisposed());
        assertTrue(spawned.isDisposed(), "requestStop reached work spawned into the scope");
        assertTrue(scope.stopToken().stopRequested());
        assertEquals(0, scope.count());
        assertEquals(0, container.size());
        assertFalse(scope.state().isOpen());
        container.dispose(); // idempotent
    }

    @Test
    @DisplayName("add after dispose disposes its argument and returns false, like a disposed CompositeDisposable")
    void add_afterDispose_disposesArgument() {
        container.dispose();
        Disposable d = Disposable.empty();
        assertFalse(container.add(d));
        assertTrue(d.isDisposed());
        assertEquals(0, scope.count());
        assertEquals(0, container.size());
    }

    @Test
    @DisplayName("add on a closed scope (closed elsewhere) disposes its argument and returns false")
    void add_onClosedScope_disposesArgument() {
        scope.close();
        Disposable d = Disposable.empty();
        assertFalse(container.add(d));
        assertTrue(d.isDisposed());
        assertFalse(container.isDisposed(), "the container itself was not disposed");
    }

    @Test
    @DisplayName("the scope's requestStop disposes the held Disposables; later adds are refused")
    void scopeRequestStop_disposesHeld() {
        Disposable d = Disposable.empty();
        container.add(d);
        scope.requestStop();
        assertTrue(d.isDisposed());
        assertEquals(0, scope.count());
        Disposable later = Disposable.empty();
        assertFalse(container.add(later));
        assertTrue(later.isDisposed());
        assertEquals(0, scope.count());
    }

    @Test
    @DisplayName("clear disposes the held Disposables and keeps container and scope usable")
    void clear_disposesHeldAndStaysUsable() {
        Disposable a = Disposable.empty();
        container.add(a);
        container.clear();
        assertTrue(a.isDisposed());
        assertEquals(0, scope.count());
        assertFalse(container.isDisposed());
        assertTrue(scope.state().isOpen());
        Disposable b = Disposable.empty();
        assertTrue(container.add(b));
        assertEquals(1, scope.count());
    }

    @Test
    @DisplayName("what held Disposables throw is rethrown after all were disposed and dissociated")
    void dispose_collectsExceptionsLikeCompositeDisposable() {
        IllegalStateException one = new IllegalStateException("one");
        IllegalArgumentException two = new IllegalArgumentException("two");
        Disposable ok = Disposable.empty();
        container.add(Disposable.fromAction(() -> { throw one; }));
        container.add(ok);
        container.add(Disposable.fromAction(() -> { throw two; }));
        CompositeException e = assertThrows(CompositeException.class, container::dispose);
        assertEquals(2, e.getExceptions().size());
        assertTrue(e.getExceptions().containsAll(List.of(one, two)));
        assertTrue(ok.isDisposed());
        assertEquals(0, scope.count());

        CountingScope s2 = new CountingScope();
        ScopeContainer c2 = RxScopes.asContainer(s2);
        IOException checked = new IOException("checked");
        c2.add(Disposable.fromAction(() -> { throw checked; }));
        RuntimeException wrapped = assertThrows(RuntimeException.class, c2::clear);
        assertSame(checked, wrapped.getCause());
        assertEquals(0, s2.count());
        c2.dispose();
        TestReceiver.start(s2.join()).await().assertValue(null);
    }

    @Test
    @DisplayName("a throwing Disposable during the scope's requestStop goes to RxJavaPlugins.onError")
    void requestStop_throwingDisposable_goesToPlugins() {
        IllegalStateException boom = new IllegalStateException("boom");
        container.add(Disposable.fromAction(() -> { throw boom; }));
        scope.requestStop();
        assertEquals(List.of(boom), plugin.errors);
        plugin.errors.clear();
        assertEquals(0, scope.count());
    }

    @Test
    @DisplayName("RxJava's subscribe(..., DisposableContainer) overloads add and delete on their own")
    void lambdaSubscribe_withContainer_addsAndDeletes() {
        SingleSubject<Integer> single = SingleSubject.create();
        MaybeSubject<Integer> maybe = MaybeSubject.create();
        CompletableSubject completable = CompletableSubject.create();
        PublishProcessor<Integer> flowable = PublishProcessor.create();
        PublishSubject<Integer> observable = PublishSubject.create();
        List<Object> seen = new CopyOnWriteArrayList<>();
        DisposableContainer asContainer = container; // the parameter type the overloads take

        single.subscribe(seen::add, seen::add, asContainer);
        maybe.subscribe(seen::add, seen::add, () -> seen.add("maybe done"), asContainer);
        completable.subscribe(() -> seen.add("completable done"), seen::add, asContainer);
        Disposable fd = flowable.subscribe(seen::add, seen::add, () -> seen.add("flowable done"), asContainer);
        Disposable od = observable.subscribe(seen::add, seen::add, () -> seen.add("observable done"), asContainer);
        assertEquals(5, scope.count());
        assertEquals(5, container.size());

        TestReceiver<Void> join = TestReceiver.start(scope.join());
        single.onSuccess(1);
        maybe.onComplete();
        completable.onComplete();
        assertEquals(2, scope.count(), "terminated observers deleted themselves");
        fd.dispose();                             // disposing the observer deletes it from the container
        assertFalse(flowable.hasSubscribers());
        assertEquals(1, scope.count());
        assertFalse(join.isDone());
        container.dispose();                      // disposes the last one (the Observable's)
        assertFalse(observable.hasObservers());
        assertTrue(od.isDisposed());
        join.await().assertValue(null);
        assertEquals(List.of(1, "maybe done", "completable done"), seen);
    }

    @Test
    @DisplayName("lambda-subscribe on a disposed container: add disposes the observer, which disposes the upstream at once")
    void lambdaSubscribe_onDisposedContainer_disposesAtOnce() {
        container.dispose();
        AtomicInteger disposed = new AtomicInteger();
        Completable c = Completable.never().doOnDispose(disposed::incrementAndGet);
        Disposable d = c.subscribe(() -> { }, e -> { }, container);
        assertTrue(d.isDisposed());
        assertEquals(1, disposed.get());
        assertEquals(0, scope.count());
        assertEquals(0, container.size());
    }

    @Test
    void nullsAreRejected() {
        assertThrows(NullPointerException.class, () -> container.add(null));
        assertThrows(NullPointerException.class, () -> container.remove(null));
        assertThrows(NullPointerException.class, () -> container.delete(null));
    }

    @Test
    void scopeAccessor() {
        assertSame(scope, container.scope());
    }
}
