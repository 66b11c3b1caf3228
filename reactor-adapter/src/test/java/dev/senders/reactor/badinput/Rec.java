package dev.senders.reactor.badinput;

import dev.senders.Env;
import dev.senders.OperationState;
import dev.senders.Receiver;
import dev.senders.Sender;

import dev.senders.scope.Scopes;
import dev.senders.scope.SimpleCountingScope;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/** A recording receiver, and a scope harness proving that sibling work is not lost. */
class Rec<T> implements Receiver<T> {
    final AtomicInteger completions = new AtomicInteger();
    final CountDownLatch done = new CountDownLatch(1);
    volatile String kind;
    volatile Object value;
    volatile Throwable error;

    void record(String k) {
        kind = k;
        completions.incrementAndGet();
        done.countDown();
    }

    @Override
    public void setValue(T v) {
        value = v;
        record("value");
    }

    @Override
    public void setError(Throwable e) {
        error = e;
        record("error");
    }

    @Override
    public void setStopped() {
        record("stopped");
    }

    @Override
    public Env env() {
        return Env.empty();
    }

    boolean await() throws InterruptedException {
        return done.await(10, TimeUnit.SECONDS);
    }

    /**
     * Runs {@code sender} nested in a scope next to a sibling operation, then checks that the sibling
     * completes and the join completes: the bad input lost nothing else.
     */
    static <T> void runInScope(Sender<T> sender, Receiver<? super T> r) throws InterruptedException {
        SimpleCountingScope scope = new SimpleCountingScope();
        Receiver<?>[] sibling = new Receiver<?>[1];
        Rec<Integer> siblingRec = new Rec<>();
        Sender<Integer> siblingWork = rr -> (OperationState) () -> sibling[0] = rr;
        Scopes.nest(siblingWork, scope.getToken()).connect(siblingRec).start();
        Scopes.nest(sender, scope.getToken()).connect(r).start();
        @SuppressWarnings("unchecked")
        Receiver<Integer> s = (Receiver<Integer>) sibling[0];
        s.setValue(7);
        if (!siblingRec.await() || !"value".equals(siblingRec.kind) || siblingRec.completions.get() != 1) {
            throw new AssertionError("the sibling operation was lost: " + siblingRec.kind);
        }
        scope.close();
        Rec<Void> join = new Rec<>();
        scope.join().connect(join).start();
        if (!join.await() || join.completions.get() != 1 || scope.count() != 0) {
            throw new AssertionError("join did not complete (count " + scope.count() + ")");
        }

    }
}
