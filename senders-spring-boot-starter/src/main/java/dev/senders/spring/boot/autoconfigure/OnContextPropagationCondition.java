package dev.senders.spring.boot.autoconfigure;

/**
 * Matches unless {@code senders.scope.context-propagation} is {@code false}, read through
 * {@link dev.senders.spring.boot.SendersScopeProperties} (its one binding, whose field holds the default).
 */
public final class OnContextPropagationCondition extends ScopeFlagCondition {

    /** Created by Spring for the annotations that name it. */
    public OnContextPropagationCondition() {
        super("senders.scope.context-propagation", p -> p.isContextPropagation());
    }
}
