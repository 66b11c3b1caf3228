package dev.senders.task;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.senders.Sender;
import dev.senders.Senders;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** docs/task.md's side-by-side example (the Task and the letValue chain), compiled and run. */
class TaskDocExampleTest {

    record User(long id, String name) { }

    record Order(long id, long userId) { }

    /** Fake asynchronous services: every call completes on a thread of {@code io}. */
    private final ExecutorService io = Executors.newFixedThreadPool(2);
    private final Map<Long, User> users = Map.of(1L, new User(1, "ada"), 2L, new User(2, "bob"));
    private final Map<Long, List<Order>> orders = Map.of(
            1L, List.of(new Order(10, 1), new Order(11, 1), new Order(12, 1)), 2L, List.of());
    private final Set<Long> paid = Set.of(10L, 12L);

    @AfterEach
    void shutdown() {
        io.shutdownNow();
    }

    private <T> Sender<T> async(java.util.function.Supplier<T> s) {
        return r -> () -> io.execute(() -> r.setValue(s.get()));
    }

    Sender<User> findUser(long id) {
        return async(() -> users.get(id));
    }

    Sender<List<Order>> ordersOf(User u) {
        return async(() -> orders.get(u.id()));
    }

    Sender<Boolean> isPaid(Order o) {
        return async(() -> paid.contains(o.id()));
    }

    // ---- the example, as in docs/task.md
    Sender<Integer> paidOrderCount(long userId) {
        return Task.of(ctx -> {
            User user = ctx.await(findUser(userId));
            if (user == null) {
                return ctx.fail(new NoSuchElementException("no user " + userId));
            }
            int n = 0;
            for (Order o : ctx.await(ordersOf(user))) {
                if (ctx.await(isPaid(o))) {
                    n++;
                }
            }
            return n;
        });
    }
    // ---- the same logic as a letValue chain, as in docs/task.md
    Sender<Integer> paidOrderCountChain(long userId) {
        return findUser(userId).letValue(user -> user == null
                ? Senders.<Integer>justError(new NoSuchElementException("no user " + userId))
                : ordersOf(user).letValue(list -> countPaid(list.iterator(), 0)));
    }

    Sender<Integer> countPaid(java.util.Iterator<Order> it, int n) {
        if (!it.hasNext()) {
            return Senders.just(n);
        }
        return isPaid(it.next()).letValue(paid -> countPaid(it, paid ? n + 1 : n));
    }
    // ----

    @Test
    @DisplayName("docs/task.md side by side: the letValue chain gives the same completions as the Task")
    void sideBySideExample_chainVersionAgreesWithTheTask() {
        for (long user : new long[] {1, 2}) {
            assertEquals(Senders.syncWait(paidOrderCount(user)), Senders.syncWait(paidOrderCountChain(user)));
        }
        assertEquals(2, Senders.syncWait(paidOrderCountChain(1)));
        RuntimeException e = assertThrows(RuntimeException.class, () -> Senders.syncWait(paidOrderCountChain(3)));
        assertInstanceOf(NoSuchElementException.class, e);
    }

    @Test
    @DisplayName("docs/task.md side by side: the Task version counts paid orders and reports a missing user as an error")
    void sideBySideExample_taskVersion() {
        assertEquals(2, Senders.syncWait(paidOrderCount(1)));
        assertEquals(0, Senders.syncWait(paidOrderCount(2)));
        RuntimeException e = assertThrows(RuntimeException.class, () -> Senders.syncWait(paidOrderCount(3)));
        assertInstanceOf(NoSuchElementException.class, e);
    }
}
