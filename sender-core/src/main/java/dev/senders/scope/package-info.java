/**
 * Async scopes (P3149, P3296): counting scopes, tokens, {@code spawn}, {@code spawnFuture},
 * {@code nest} and {@code letAsyncScope}. Parameters and results are non-null unless marked
 * {@code @Nullable}.
 */
@NullMarked
package dev.senders.scope;

import org.jspecify.annotations.NullMarked;
