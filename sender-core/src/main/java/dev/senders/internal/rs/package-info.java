/**
 * Not API: the Reactive Streams boundary core shared with the adapter modules.
 */
@NullMarked
package dev.senders.internal.rs;

import org.jspecify.annotations.NullMarked;
