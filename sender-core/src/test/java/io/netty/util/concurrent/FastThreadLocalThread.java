package io.netty.util.concurrent;

/**
 * A stand-in with the name and the {@code permitBlockingCalls()} method of Netty's class, so that
 * sender-core's tests check the by-name detection of Netty event-loop threads without depending
 * on Netty. Test support only.
 */
public class FastThreadLocalThread extends Thread {

    public FastThreadLocalThread(Runnable r) {
        super(r, "fake-netty-event-loop");
    }

    /** As in Netty: event loops do not permit blocking calls; subclasses for blocking pools override. */
    public boolean permitBlockingCalls() {
        return false;
    }
}
