package dev.senders.spring.boot;

import io.micrometer.context.ContextRegistry;
import io.micrometer.context.ThreadLocalAccessor;
import java.util.List;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.springframework.util.ClassUtils;
import reactor.util.context.Context;

/**
 * What {@link ReactorScopeSpawner} applies with {@code contextWrite} at subscription: the value of
 * every {@code ThreadLocalAccessor} registered with the global {@link ContextRegistry} that has one
 * on the subscribing thread, put into the subscription's Reactor {@code Context} under the
 * accessor's key; what Reactor's {@code contextCapture()} writes, without its snapshot map and the
 * map copy of {@code Context.putAllMap}. Nothing is written when no accessor has a value.
 */
final class ReactorContextCapture {

    /** The function, or {@code null} without Micrometer's context-propagation library. */
    static final @Nullable Function<Context, Context> CAPTURE =
            ClassUtils.isPresent("io.micrometer.context.ContextRegistry", ReactorContextCapture.class.getClassLoader())
                    ? ReactorContextCapture::capture : null;

    private ReactorContextCapture() {
    }

    private static Context capture(Context context) {
        List<ThreadLocalAccessor<?>> accessors = ContextRegistry.getInstance().getThreadLocalAccessors();
        Context written = context;
        for (int i = 0, size = accessors.size(); i < size; i++) {
            ThreadLocalAccessor<?> accessor = accessors.get(i);
            Object value = accessor.getValue();
            if (value != null) {
                written = written.put(accessor.key(), value);
            }
        }
        return written;
    }
}
