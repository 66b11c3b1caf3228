/**
 * The application scope for Spring Boot: spawners, shutdown, properties, the error log and the
 * spawn context. Parameters and results are non-null unless marked {@code @Nullable}.
 */
@NullMarked
package dev.senders.spring.boot;

import org.jspecify.annotations.NullMarked;
