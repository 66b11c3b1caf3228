package dev.senders;

import org.jspecify.annotations.Nullable;

/** The two {@link Env} implementations: the empty env and one binding on top of a parent. */
final class Envs {

    private Envs() {}

    static final Env EMPTY = new Env() {
        @Override
        public <V> @Nullable V get(Query<V> query) {
            return query.defaultValue();
        }

        @Override
        public String toString() {
            return "Env[]";
        }
    };

    /** One key bound on top of a parent env; lookups walk towards the root. */
    static final class Binding implements Env {
        private final Env parent;
        private final Query<?> query;
        private final @Nullable Object value;

        Binding(Env parent, Query<?> query, @Nullable Object value) {
            this.parent = parent;
            this.query = query;
            this.value = value;
        }

        @Override
        @SuppressWarnings("unchecked")
        public <V> @Nullable V get(Query<V> q) {
            Env e = this;
            while (e instanceof Binding) {
                Binding b = (Binding) e;
                if (b.query == q) {
                    return (V) b.value;
                }
                e = b.parent;
            }
            return e.get(q);
        }

        @Override
        public String toString() {
            return "Env[" + query.name() + "=" + value + ", ...]";
        }
    }
}
