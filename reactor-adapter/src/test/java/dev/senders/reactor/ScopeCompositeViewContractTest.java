package dev.senders.reactor;

import dev.senders.scope.CountingScope;
import dev.senders.testkit.ScopeContainerViewContract;
import reactor.core.Disposable;

/** {@code ReactorScopes.asComposite} held to the container-view contract shared with RxJava's view. */
class ScopeCompositeViewContractTest extends ScopeContainerViewContract<Disposable.Composite, Disposable> {

    @Override
    protected Disposable.Composite view(CountingScope scope) {
        return ReactorScopes.asComposite(scope);
    }

    @Override
    protected Disposable member(Runnable onDispose) {
        return onDispose::run;
    }

    @Override
    protected boolean add(Disposable.Composite view, Disposable member) {
        return view.add(member);
    }

    @Override
    protected boolean forget(Disposable.Composite view, Disposable member) {
        return view.remove(member);
    }

    @Override
    protected void dispose(Disposable.Composite view) {
        view.dispose();
    }

    @Override
    protected boolean isDisposed(Disposable.Composite view) {
        return view.isDisposed();
    }

    @Override
    protected int size(Disposable.Composite view) {
        return view.size();
    }
}
