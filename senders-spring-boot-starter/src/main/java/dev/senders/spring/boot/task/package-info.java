/**
 * Tracking of Spring's task executors and {@code @Async} methods on the application scope: the
 * post-processors that wrap them. Not API; parameters and results are non-null unless marked
 * {@code @Nullable}.
 */
@NullMarked
package dev.senders.spring.boot.task;

import org.jspecify.annotations.NullMarked;
