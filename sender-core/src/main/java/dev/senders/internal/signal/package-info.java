/**
 * Not API: the receiver contract shared with the adapter modules (signal helpers, receiver guards,
 * checked connect, stop registrations).
 */
@NullMarked
package dev.senders.internal.signal;

import org.jspecify.annotations.NullMarked;
