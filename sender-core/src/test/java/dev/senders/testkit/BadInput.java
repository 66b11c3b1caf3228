package dev.senders.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.ProtocolViolationException;
import dev.senders.testkit.Broken.NullConnectSender;
import org.junit.jupiter.api.function.Executable;

/**
 * The assertions of the bad-input tests, shared by sender-core and the adapters: a bad argument
 * gets an exception that names it; a broken sender gets a violation that names its class. Test
 * support, not published API.
 */
public final class BadInput {

    private BadInput() {}

    /** {@code call} throws a {@link NullPointerException} whose message is {@code arg}, the argument's name. */
    public static void assertNpeNaming(String arg, Executable call) {
        NullPointerException e = assertThrows(NullPointerException.class, call);
        assertEquals(arg, e.getMessage());
    }

    /**
     * {@code e} is the {@link ProtocolViolationException} for a {@link NullConnectSender}: it names
     * that class and says that its {@code connect} returned null.
     */
    public static void assertNamesNullConnectSender(Throwable e) {
        ProtocolViolationException pve = assertInstanceOf(ProtocolViolationException.class, e);
        assertTrue(pve.getMessage().contains(NullConnectSender.class.getName()), pve.getMessage());
        assertTrue(pve.getMessage().contains("connect returned null"), pve.getMessage());
    }
}
