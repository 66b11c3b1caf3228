/**
 * Senders and receivers (P2300): the sender/receiver model, stop tokens, schedulers, the sender
 * algorithms and {@code syncWait}. Parameters and results are non-null unless marked
 * {@code @Nullable}.
 */
@NullMarked
package dev.senders;

import org.jspecify.annotations.NullMarked;
