package dev.senders.spring.boot.autoconfigure;

import dev.senders.spring.boot.SendersScopeProperties;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * Matches unless {@code senders.scope.context-propagation} is {@code false}, read through
 * {@link SendersScopeProperties} (its one binding, whose field holds the default).
 */
public final class OnContextPropagationCondition extends SpringBootCondition {

    /** Created by Spring for the annotations that name it. */
    public OnContextPropagationCondition() {
    }

    @Override
    public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
        boolean on = SendersScopeProperties.bind(context.getEnvironment()).isContextPropagation();
        return on ? ConditionOutcome.match("senders.scope.context-propagation is true")
                : ConditionOutcome.noMatch("senders.scope.context-propagation is false");
    }
}
