/**
 * A lazy task (P3552): {@code Task} and the threads it runs on. Parameters and results are
 * non-null unless marked {@code @Nullable}.
 */
@NullMarked
package dev.senders.task;

import org.jspecify.annotations.NullMarked;
