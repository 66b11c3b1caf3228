/**
 * Not API: the adapters' spawn and container code (exported only to the adapter modules).
 */
@NullMarked
package dev.senders.scope.internal;

import org.jspecify.annotations.NullMarked;
