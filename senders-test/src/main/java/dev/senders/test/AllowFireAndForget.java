package dev.senders.test;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Lets a test method (or every test of a class) leave fire-and-forget subscriptions running at
 * its end: {@link SendersExtension} and the Spring listener then do not look for them. For a
 * subscription that is meant to outlive the test (a refresher started by a fixture).
 */
@Documented
@Inherited
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
public @interface AllowFireAndForget {

    /**
     * Why the subscriptions may stay (for the reader; not checked).
     *
     * @return the reason
     */
    String value() default "";
}
