/**
 * Micrometer meters of the application scope. Parameters and results are non-null unless marked
 * {@code @Nullable}.
 */
@NullMarked
package dev.senders.spring.boot.metrics;

import org.jspecify.annotations.NullMarked;
