package dev.senders.reactor;

import org.jspecify.annotations.Nullable;
import reactor.core.Scannable;

/**
 * What the adapter's operators over one source answer to Reactor's {@link Scannable#scanUnsafe}
 * when they subscribe to that source on the subscribing thread: the source as
 * {@code Attr.PARENT}, {@code Attr.RunStyle.SYNC} as {@code Attr.RUN_STYLE}, nothing else.
 */
final class OperatorScan {

    private OperatorScan() {}

    /**
     * The answer of a synchronous operator on {@code source}.
     *
     * @param key the attribute asked for
     * @param source the operator's source
     * @return {@code source}, {@code RunStyle.SYNC} or {@code null}
     */
    @SuppressWarnings("rawtypes") // Scannable declares the raw Attr
    static @Nullable Object syncOperator(Scannable.Attr key, Object source) {
        if (key == Scannable.Attr.PARENT) {
            return source;
        }
        return key == Scannable.Attr.RUN_STYLE ? Scannable.Attr.RunStyle.SYNC : null;
    }
}
