package dev.senders.rxjava3;

import dev.senders.scope.CountingScope;
import dev.senders.testkit.ScopeContainerViewContract;
import io.reactivex.rxjava3.disposables.Disposable;

/** {@code RxScopes.asContainer} held to the container-view contract shared with Reactor's view. */
class ScopeContainerViewContractTest extends ScopeContainerViewContract<ScopeContainer, Disposable> {

    @Override
    protected ScopeContainer view(CountingScope scope) {
        return RxScopes.asContainer(scope);
    }

    @Override
    protected Disposable member(Runnable onDispose) {
        return Disposable.fromRunnable(onDispose); // disposes at most once, like RxJava's own
    }

    @Override
    protected boolean add(ScopeContainer view, Disposable member) {
        return view.add(member);
    }

    @Override
    protected boolean forget(ScopeContainer view, Disposable member) {
        return view.delete(member);
    }

    @Override
    protected void dispose(ScopeContainer view) {
        view.dispose();
    }

    @Override
    protected boolean isDisposed(ScopeContainer view) {
        return view.isDisposed();
    }

    @Override
    protected int size(ScopeContainer view) {
        return view.size();
    }
}
