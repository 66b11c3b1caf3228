package dev.senders.scope;

import java.util.function.BooleanSupplier;

/** Forces collection until a condition holds, with a bounded wait (a hang guard, not a timing assertion). */
final class Gc {

    private Gc() {}

    static boolean awaitCondition(BooleanSupplier condition) {
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (System.nanoTime() < deadline) {
            if (condition.getAsBoolean()) {
                return true;
            }
            System.gc();
            byte[][] garbage = new byte[64][];
            for (int i = 0; i < garbage.length; i++) {
                garbage[i] = new byte[16 * 1024];
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return condition.getAsBoolean();
    }
}
