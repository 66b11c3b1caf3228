package dev.senders.testkit;

import dev.senders.OperationState;
import dev.senders.Receiver;
import dev.senders.Sender;
import dev.senders.scope.Scopes;
import dev.senders.scope.SimpleCountingScope;

/**
 * Harness for bad-input tests: runs a sender nested in a scope next to a sibling operation and
 * proves that the bad input lost nothing else. Test support, not published API (see package-info).
 */
public final class ScopeSiblings {

    private ScopeSiblings() {}

    /**
     * Runs {@code sender} nested in a {@link SimpleCountingScope} next to a sibling operation, then checks
     * that the sibling completes once with its value and that the scope's join completes with nothing left
     * associated. Fails with an {@link AssertionError} otherwise.
     */
    public static <T> void runInScope(Sender<T> sender, Receiver<? super T> r) {
        SimpleCountingScope scope = new SimpleCountingScope();
        Receiver<?>[] sibling = new Receiver<?>[1];
        TestReceiver<Integer> siblingRec = new TestReceiver<>();
        Sender<Integer> siblingWork = rr -> (OperationState) () -> sibling[0] = rr;
        Scopes.nest(siblingWork, scope.getToken()).connect(siblingRec).start();
        Scopes.nest(sender, scope.getToken()).connect(r).start();
        @SuppressWarnings("unchecked")
        Receiver<Integer> s = (Receiver<Integer>) sibling[0];
        s.setValue(7);
        siblingRec.await();
        if (siblingRec.kind() != TestReceiver.Kind.VALUE || siblingRec.completions() != 1) {
            throw new AssertionError("the sibling operation was lost: " + siblingRec.signals());
        }
        scope.close();
        TestReceiver<Void> join = new TestReceiver<>();
        scope.join().connect(join).start();
        join.await();
        if (join.completions() != 1 || scope.count() != 0) {
            throw new AssertionError("join did not complete (count " + scope.count() + ")");
        }
    }
}
