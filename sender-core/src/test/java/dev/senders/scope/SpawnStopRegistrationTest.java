package dev.senders.scope;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.Env;
import dev.senders.OperationState;
import dev.senders.Query;
import dev.senders.Receiver;
import dev.senders.Sender;
import dev.senders.StopCallback;
import dev.senders.StopToken;
import dev.senders.testkit.TestReceiver;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Work spawned into a scope with a stop source registers on its spawn receiver's stop token; the
 * receiver is that token and its first registration (decision U3). These are the rules of
 * {@link StopToken} and {@code StopCallback}, checked on that token.
 */
@DisplayName("P3149 spawn into a CountingScope: the receiver's stop token follows the scope's stop")
class SpawnStopRegistrationTest {

    /** A sender whose operation hands its receiver to the test and does nothing else. */
    static final class Capture implements Sender<Object> {
        final List<Receiver<? super Object>> receivers = new ArrayList<>();

        @Override
        public OperationState connect(Receiver<? super Object> r) {
            receivers.add(r);
            return () -> { };
        }

        Receiver<? super Object> last() {
            return receivers.get(receivers.size() - 1);
        }
    }

    @Test
    @DisplayName("two registrations on the receiver's token: both run once on the scope's stop, on the stopping thread")
    void twoRegistrations_bothRunOnce() {
        CountingScope scope = new CountingScope();
        Capture work = new Capture();
        assertTrue(Scopes.spawn(work, scope.getToken()));
        StopToken token = work.last().env().stopToken();
        assertTrue(token.stopPossible());
        AtomicInteger first = new AtomicInteger();
        AtomicInteger second = new AtomicInteger();
        AtomicReference<Thread> ranOn = new AtomicReference<>();
        StopCallback a = token.onStop(() -> {
            first.incrementAndGet();
            ranOn.set(Thread.currentThread());
        });
        StopCallback b = token.onStop(second::incrementAndGet);
        assertNotSame(a, b);
        assertFalse(token.stopRequested());
        scope.requestStop();
        assertTrue(token.stopRequested());
        assertEquals(1, first.get());
        assertEquals(1, second.get());
        assertSame(Thread.currentThread(), ranOn.get());
        a.close();
        b.close();
        work.last().setStopped();
        assertEquals(0, scope.count());
    }

    @Test
    @DisplayName("a registration closed before the scope's stop never runs")
    void closedRegistration_neverRuns() {
        CountingScope scope = new CountingScope();
        Capture work = new Capture();
        Scopes.spawn(work, scope.getToken());
        AtomicInteger ran = new AtomicInteger();
        StopCallback c = work.last().env().stopToken().onStop(ran::incrementAndGet);
        c.close();
        c.close(); // idempotent
        work.last().setValue(null);
        scope.requestStop();
        assertEquals(0, ran.get());
        assertEquals(0, scope.count());
    }

    @Test
    @DisplayName("registering after the scope's stop runs the callback inline, on the registering thread")
    void registrationAfterStop_runsInline() {
        CountingScope scope = new CountingScope();
        Capture work = new Capture();
        Scopes.spawn(work, scope.getToken());
        scope.requestStop();
        AtomicInteger ran = new AtomicInteger();
        StopCallback c = work.last().env().stopToken().onStop(ran::incrementAndGet);
        assertEquals(1, ran.get());
        c.close();
        work.last().setStopped();
        assertEquals(0, scope.count());
    }

    @Test
    @DisplayName("a callback closing its own registration from inside itself returns at once")
    void closeFromInsideTheCallback_returns() {
        CountingScope scope = new CountingScope();
        Capture work = new Capture();
        Scopes.spawn(work, scope.getToken());
        AtomicReference<StopCallback> self = new AtomicReference<>();
        AtomicInteger ran = new AtomicInteger();
        self.set(work.last().env().stopToken().onStop(() -> {
            ran.incrementAndGet();
            self.get().close();
        }));
        scope.requestStop();
        assertEquals(1, ran.get());
        work.last().setStopped();
    }

    @Test
    @DisplayName("the receiver's env forwards every other query to the token's spawn env (letAsyncScope: the outer receiver's env)")
    void envForwardsOtherQueries() {
        Query<String> user = Query.named("user");
        AtomicReference<Receiver<? super Object>> seen = new AtomicReference<>();
        Sender<Integer> body = Scopes.letAsyncScope(token -> {
            Scopes.spawn(r -> {
                seen.set(r);
                return () -> r.setValue(null);
            }, token);
            return dev.senders.Senders.just(1);
        });
        TestReceiver<Integer> outer = new TestReceiver<>(Env.of(user, "u"));
        body.connect(outer).start();
        assertEquals(1, outer.value());
        assertEquals("u", seen.get().env().get(user));
        assertSame(seen.get(), seen.get().env().stopToken());
    }

    @Test
    @DisplayName("finished work that had registered is not kept by the scope's stop source (callback and work collectable)")
    void finishedRegisteredWork_isCollectable() {
        CountingScope scope = new CountingScope();
        List<WeakReference<Object>> refs = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            Capture work = new Capture();
            Scopes.spawn(work, scope.getToken());
            Object payload = new byte[1024];
            refs.add(new WeakReference<>(payload));
            StopCallback c = work.last().env().stopToken().onStop(() -> System.out.println(payload));
            c.close();
            work.last().setValue(null);
        }
        assertEquals(0, scope.count());
        assertTrue(Gc.awaitCondition(() -> refs.stream().allMatch(r -> r.get() == null)),
                "the callbacks (and what they hold) of finished work were collected");
        scope.close();
        dev.senders.Senders.syncWait(scope.join());
    }
}
