/**
 * Spring Boot auto-configurations of the application scope and its optional features. Parameters
 * and results are non-null unless marked {@code @Nullable}.
 */
@NullMarked
package dev.senders.spring.boot.autoconfigure;

import org.jspecify.annotations.NullMarked;
