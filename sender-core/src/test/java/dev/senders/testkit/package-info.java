/**
 * Test support shared by the test suites of sender-core and the adapters: one recording
 * {@link dev.senders.testkit.TestReceiver} and one hand-driven {@link dev.senders.testkit.ManualSender}.
 *
 * <p><b>Not published API.</b> These classes live in sender-core's test sources and reach other
 * modules only through sender-core's {@code test-jar} ({@code <type>test-jar</type><scope>test</scope>}).
 * They may change with any commit; never use them from main code. JDK only (no JUnit), so that any
 * test framework can use them.
 */
package dev.senders.testkit;
