package dev.senders.rxjava3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.senders.scope.CountingScope;
import io.reactivex.rxjava3.core.Completable;
import io.reactivex.rxjava3.core.Flowable;
import io.reactivex.rxjava3.core.Maybe;
import io.reactivex.rxjava3.core.Observable;
import io.reactivex.rxjava3.core.Single;
import io.reactivex.rxjava3.disposables.Disposable;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("RxScopes.spawn under a name: listed while it runs, for every source type")
class NamedSpawnTest {

    @Test
    @DisplayName("each source type spawned under a name is listed by it, disposed by its Disposable, refused once closed")
    void everySourceType_isListedByName() {
        CountingScope scope = new CountingScope("rx");
        List<Disposable> ds = List.of(
                RxScopes.spawn(Completable.never(), scope.getToken(), "c"),
                RxScopes.spawn(Single.never(), scope.getToken(), "s"),
                RxScopes.spawn(Maybe.never(), scope.getToken(), "m"),
                RxScopes.spawn(Flowable.never(), scope.getToken(), "f"),
                RxScopes.spawn(Observable.never(), scope.getToken(), "o"));
        assertEquals(List.of("c", "f", "m", "o", "s"),
                scope.outstanding().stream().map(w -> w.name().orElseThrow()).sorted().toList());
        ds.forEach(Disposable::dispose);
        assertEquals(0, scope.count());
        scope.close();
        assertSame(RxScopes.REFUSED, RxScopes.spawn(Completable.complete(), scope.getToken(), "late"));
    }
}
