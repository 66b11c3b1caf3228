package dev.senders.docs;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.stream.Collectors;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;
import org.springframework.test.context.cache.DefaultCacheAwareContextLoaderDelegate;

/**
 * Runs a compiled Spring test snippet with the JUnit Platform (Jupiter, through EngineTestKit): its
 * classes are loaded from the compiler's output over this module's test class path, which holds the
 * application the snippet tests ({@code dev.senders.docs.spring}); the thread's context class loader
 * is that loader while it runs, so Spring finds the snippet's package and its application. Each
 * snippet starts its own contexts: Spring's context cache is emptied (its contexts closed) after each.
 */
final class SpringSnippetRunner {

    private SpringSnippetRunner() {}

    /** Null when the class has tests and all pass, else what went wrong. */
    static String run(Path classes, String className) {
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        try (URLClassLoader loader = new URLClassLoader(new URL[] {classes.toUri().toURL()}, SpringSnippetRunner.class.getClassLoader())) {
            Class<?> test = Class.forName(className, true, loader);
            thread.setContextClassLoader(loader);
            Events events = EngineTestKit.engine("junit-jupiter").selectors(selectClass(test)).execute().testEvents();
            if (events.started().count() == 0) {
                return "no test ran in " + className;
            }
            if (events.succeeded().count() == events.started().count()) {
                return null;
            }
            return events.failed().stream()
                    .map(e -> e.getTestDescriptor().getDisplayName() + ": " + e.getPayload(TestExecutionResult.class)
                            .flatMap(TestExecutionResult::getThrowable).map(Throwable::toString).orElse("aborted"))
                    .collect(Collectors.joining("; "));
        } catch (MalformedURLException | ClassNotFoundException e) {
            throw new IllegalStateException("cannot load the compiled snippet " + className + " from " + classes, e);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        } finally {
            thread.setContextClassLoader(previous);
            new SharedContextCache().reset();
        }
    }

    /** Spring's process-wide context cache, which the default delegate uses. */
    private static final class SharedContextCache extends DefaultCacheAwareContextLoaderDelegate {
        void reset() {
            getContextCache().reset();
        }
    }
}
