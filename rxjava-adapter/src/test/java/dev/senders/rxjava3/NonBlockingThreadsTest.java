package dev.senders.rxjava3;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.Senders;
import io.reactivex.rxjava3.core.Single;
import io.reactivex.rxjava3.schedulers.Schedulers;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("syncWait on an RxJava computation thread fails fast; io() threads may block")
class NonBlockingThreadsTest {

    private static Throwable syncWaitOn(io.reactivex.rxjava3.core.Scheduler scheduler) {
        return Single.fromCallable(() -> {
            try {
                Senders.syncWait(Senders.just(1));
                return (Throwable) new AssertionError("returned on " + Thread.currentThread().getName());
            } catch (Throwable t) {
                return t;
            }
        }).subscribeOn(scheduler).timeout(10, TimeUnit.SECONDS).blockingGet();
    }

    @Test
    @DisplayName("syncWait inside Schedulers.computation() throws IllegalStateException naming the thread")
    void computation_throws() {
        Throwable t = syncWaitOn(Schedulers.computation());
        assertTrue(t instanceof IllegalStateException, () -> "thrown: " + t);
        assertTrue(t.getMessage().contains("not supported in thread RxComputationThreadPool-"), t.getMessage());
    }

    @Test
    @DisplayName("syncWait inside Schedulers.io() is allowed")
    void io_allowed() {
        Throwable t = syncWaitOn(Schedulers.io());
        assertTrue(t instanceof AssertionError && t.getMessage().startsWith("returned on RxCachedThreadScheduler-"), t::toString);
    }
}
