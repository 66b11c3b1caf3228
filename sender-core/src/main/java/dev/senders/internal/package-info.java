/**
 * Not API: platform utilities shared with the adapter modules (the trampoline, timers, JFR events,
 * thread kinds).
 */
@NullMarked
package dev.senders.internal;

import org.jspecify.annotations.NullMarked;
