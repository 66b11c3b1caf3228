/**
 * Actuator health contributor and endpoint of the application scope. Parameters and results are
 * non-null unless marked {@code @Nullable}.
 */
@NullMarked
package dev.senders.spring.boot.actuate;

import org.jspecify.annotations.NullMarked;
