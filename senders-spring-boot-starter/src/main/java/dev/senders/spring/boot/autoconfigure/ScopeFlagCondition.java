package dev.senders.spring.boot.autoconfigure;

import dev.senders.spring.boot.SendersScopeProperties;
import java.util.function.Predicate;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * Matches while one boolean {@code senders.scope.*} property is {@code true}, read through
 * {@link SendersScopeProperties#bind} (the property's one binding, whose field holds the default),
 * so that a condition never repeats a property's name and default of its own.
 */
abstract class ScopeFlagCondition extends SpringBootCondition {

    private final String property;
    private final Predicate<SendersScopeProperties> flag;

    ScopeFlagCondition(String property, Predicate<SendersScopeProperties> flag) {
        this.property = property;
        this.flag = flag;
    }

    @Override
    public final ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
        boolean on = flag.test(SendersScopeProperties.bind(context.getEnvironment()));
        return on ? ConditionOutcome.match(property + " is true") : ConditionOutcome.noMatch(property + " is false");
    }
}
