/**
 * The application scope for Spring Boot: spawners and their tokens by kind of work, shutdown,
 * reports, properties, the error log and the starter's spawn decorators (MDC, context snapshot,
 * observation). Parameters and results are non-null unless marked {@code @Nullable}.
 */
@NullMarked
package dev.senders.spring.boot;

import org.jspecify.annotations.NullMarked;
