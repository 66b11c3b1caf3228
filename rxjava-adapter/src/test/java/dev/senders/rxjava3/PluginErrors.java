package dev.senders.rxjava3;

import io.reactivex.rxjava3.plugins.RxJavaPlugins;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** Installs an RxJavaPlugins error handler that records; close() resets the plugins. */
final class PluginErrors implements AutoCloseable {
    final List<Throwable> errors = new CopyOnWriteArrayList<>();

    PluginErrors() {
        RxJavaPlugins.setErrorHandler(errors::add);
    }

    @Override
    public void close() {
        RxJavaPlugins.reset();
    }
}
