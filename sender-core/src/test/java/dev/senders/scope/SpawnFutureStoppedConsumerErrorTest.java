package dev.senders.scope;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.senders.Env;
import dev.senders.Hooks;
import dev.senders.InplaceStopSource;
import dev.senders.Query;
import dev.senders.Sender;
import dev.senders.Senders;
import dev.senders.testkit.ManualSender;
import dev.senders.testkit.TestReceiver;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * An error of spawnFuture's work never vanishes: when the consumer was stopped and so never gets
 * it, it goes to {@link Hooks#onErrorDropped} (once), whichever came first.
 */
@DisplayName("spawnFuture: the error of work whose consumer was stopped goes to Hooks.onErrorDropped")
class SpawnFutureStoppedConsumerErrorTest {

    private final List<Throwable> dropped = new CopyOnWriteArrayList<>();

    @AfterEach
    void resetHooks() {
        Hooks.resetOnErrorDropped();
    }

    private TestReceiver<Object> consumer(InplaceStopSource stop) {
        return new TestReceiver<>(Env.of(Query.STOP_TOKEN, stop.token()));
    }

    @Test
    @DisplayName("work failed, then the consumer starts with its stop already requested: stopped, error dropped")
    void errorBeforeConsumerStartedStopped() {
        Hooks.setOnErrorDropped(dropped::add);
        CountingScope scope = new CountingScope();
        IllegalStateException boom = new IllegalStateException("boom");
        Sender<Object> f = Scopes.spawnFuture(Senders.justError(boom), scope.getToken());
        InplaceStopSource stop = new InplaceStopSource();
        stop.requestStop();
        TestReceiver<Object> r = consumer(stop);
        f.connect(r).start();
        assertEquals(TestReceiver.Kind.STOPPED, r.kind());
        assertEquals(List.of(boom), dropped);
        Senders.syncWait(scope.join());
    }

    @Test
    @DisplayName("consumer started and stopped, then the work fails: error dropped once")
    void errorAfterConsumerStopped() {
        Hooks.setOnErrorDropped(dropped::add);
        CountingScope scope = new CountingScope();
        ManualSender<Object> work = new ManualSender<>();
        Sender<Object> f = Scopes.spawnFuture(work, scope.getToken());
        InplaceStopSource stop = new InplaceStopSource();
        TestReceiver<Object> r = consumer(stop);
        f.connect(r).start();
        stop.requestStop();
        assertEquals(TestReceiver.Kind.STOPPED, r.kind());
        assertEquals(List.of(), dropped, "nothing to drop while the work runs");
        IllegalStateException boom = new IllegalStateException("boom");
        work.fail(boom);
        assertEquals(List.of(boom), dropped);
        Senders.syncWait(scope.join());
    }

    @Test
    @DisplayName("a value of work whose consumer was stopped is let go, nothing is reported")
    void valueOfStoppedConsumerIsNotReported() {
        Hooks.setOnErrorDropped(dropped::add);
        CountingScope scope = new CountingScope();
        Sender<Object> f = Scopes.spawnFuture(Senders.just("v"), scope.getToken());
        InplaceStopSource stop = new InplaceStopSource();
        stop.requestStop();
        TestReceiver<Object> r = consumer(stop);
        f.connect(r).start();
        assertEquals(TestReceiver.Kind.STOPPED, r.kind());
        assertEquals(List.of(), dropped);
        Senders.syncWait(scope.join());
    }
}
