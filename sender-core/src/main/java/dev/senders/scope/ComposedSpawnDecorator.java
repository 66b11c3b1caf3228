package dev.senders.scope;

import java.util.Arrays;
import org.jspecify.annotations.Nullable;

/**
 * What {@link SpawnDecorator#compose} returns for two or more decorators: each decorates the work
 * in order; their decorations are installed in order and uninstalled in reverse order, and told
 * the end in order. One that throws (against the contract) does not keep the others from being
 * uninstalled or told; the first exception is rethrown after them.
 */
final class ComposedSpawnDecorator implements SpawnDecorator {

    final SpawnDecorator[] decorators;

    ComposedSpawnDecorator(SpawnDecorator[] decorators) {
        this.decorators = decorators;
    }

    @Override
    public Decoration decorate(String scopeName, @Nullable String workName) {
        Decoration[] ds = new Decoration[decorators.length];
        for (int i = 0; i < ds.length; i++) {
            ds[i] = decorators[i].decorate(scopeName, workName);
        }
        return new Composed(ds);
    }

    @Override
    public void refused(String scopeName) {
        for (SpawnDecorator d : decorators) {
            d.refused(scopeName);
        }
    }

    @Override
    public String toString() {
        return "SpawnDecorator" + Arrays.toString(decorators);
    }

    private static final class Composed implements Decoration {

        private final Decoration[] decorations;

        Composed(Decoration[] decorations) {
            this.decorations = decorations;
        }

        /**
         * Installs each; what it returns allocates nothing when at most one of them installed
         * something (not {@link Installed#NOTHING}): that one's, or {@code NOTHING}.
         */
        @Override
        public Installed install() {
            Installed single = null;
            int singleAt = 0;
            Installed[] installed = null;
            int n = 0;
            try {
                for (; n < decorations.length; n++) {
                    Installed one = decorations[n].install();
                    if (one == Installed.NOTHING) {
                        continue;
                    }
                    if (single == null && installed == null) {
                        single = one;
                        singleAt = n;
                        continue;
                    }
                    if (installed == null) {
                        installed = new Installed[decorations.length];
                        java.util.Arrays.fill(installed, Installed.NOTHING);
                        installed[singleAt] = single;
                        single = null;
                    }
                    installed[n] = one;
                }
            } catch (RuntimeException | Error e) {
                if (installed != null) {
                    uninstall(installed, n, e);
                } else if (single != null) {
                    uninstall(new Installed[] {single}, 1, e);
                }
                throw e;
            }
            if (installed == null) {
                return single == null ? Installed.NOTHING : single;
            }
            Installed[] all = installed;
            return () -> uninstall(all, all.length, null);
        }

        /** Closes the first {@code n} in reverse order; rethrows the first failure unless {@code pending}. */
        private static void uninstall(Installed[] installed, int n, @Nullable Throwable pending) {
            Throwable first = pending;
            for (int i = n - 1; i >= 0; i--) {
                try {
                    installed[i].close();
                } catch (RuntimeException | Error e) {
                    if (first == null) {
                        first = e;
                    } else if (first != e) {
                        first.addSuppressed(e);
                    }
                }
            }
            if (pending == null) {
                rethrow(first);
            }
        }

        @Override
        public void end(Outcome outcome, @Nullable Throwable error) {
            Throwable first = null;
            for (Decoration d : decorations) {
                try {
                    d.end(outcome, error);
                } catch (RuntimeException | Error e) {
                    if (first == null) {
                        first = e;
                    } else {
                        first.addSuppressed(e);
                    }
                }
            }
            rethrow(first);
        }

        private static void rethrow(@Nullable Throwable t) {
            if (t instanceof RuntimeException) {
                throw (RuntimeException) t;
            }
            if (t instanceof Error) {
                throw (Error) t;
            }
        }
    }
}
