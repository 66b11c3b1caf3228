/**
 * Test support for senders: {@link dev.senders.test.SendersExtension} (JUnit Jupiter),
 * {@link dev.senders.test.TestReceiver}, {@link dev.senders.test.VirtualTime} and, when Spring's
 * TestContext framework and the starter are present, a listener that waits for the application
 * scope after each test method ({@link dev.senders.test.ApplicationScope}). See
 * {@link dev.senders.test}.
 *
 * <p>Requiring this module gives {@code dev.senders.core} and {@code org.junit.jupiter.api} as
 * well. Spring is optional: the listener is loaded only by Spring, from
 * {@code META-INF/spring.factories}.
 */
module dev.senders.test {
    requires transitive dev.senders.core;
    requires transitive org.junit.jupiter.api;
    requires org.junit.platform.commons;

    requires static transitive spring.test;
    requires static spring.context;
    requires static transitive spring.core;
    requires static spring.beans;
    requires static dev.senders.spring.boot;
    requires static dev.senders.reactor; // the fire-and-forget check, when the adapters are present
    requires static dev.senders.rxjava3;

    exports dev.senders.test;
}
