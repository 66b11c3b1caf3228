/**
 * Test support for the work a test spawns, for JUnit Jupiter users.
 *
 * <ul>
 *   <li>{@link dev.senders.test.SendersExtension}: one scope per test, joined after it within a
 *       deadline; the test fails when work still runs or spawned work failed.</li>
 *   <li>{@link dev.senders.test.TestReceiver}: starts a sender and asserts its one completion,
 *       as RxJava's {@code TestObserver} does for an observable.</li>
 *   <li>{@link dev.senders.test.VirtualTime}: a clock the test advances, which the library's
 *       deadlines ({@code timeout}) follow.</li>
 *   <li>{@link dev.senders.test.ApplicationScope} and a Spring TestContext listener (registered
 *       through {@code META-INF/spring.factories}): every Spring test waits after each test
 *       method for the application scope to be idle and fails on work that failed or still
 *       runs.</li>
 * </ul>
 */
@NullMarked
package dev.senders.test;

import org.jspecify.annotations.NullMarked;
