package dev.senders.test;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.concurrent.TimeUnit;

/**
 * How long {@link SendersExtension} waits, after a test, for the work spawned into its scopes to
 * finish before it fails the test. On a test method it wins over one on its class, which wins
 * over the JUnit configuration parameter {@value SendersExtension#JOIN_TIMEOUT_PARAMETER}; the
 * default is 5 s. Like JUnit's {@code @Timeout}.
 */
@Documented
@Inherited
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
public @interface JoinTimeout {

    /**
     * The deadline, in {@link #unit()}s.
     *
     * @return the amount, zero or more
     */
    long value();

    /**
     * The unit of {@link #value()}.
     *
     * @return the unit, seconds by default
     */
    TimeUnit unit() default TimeUnit.SECONDS;
}
