package dev.senders.spring.boot.autoconfigure;

import java.util.ArrayList;
import java.util.List;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.NoSuchBeanDefinitionException;
import org.springframework.beans.factory.config.ConfigurableBeanFactory;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.util.ClassUtils;
import org.jspecify.annotations.Nullable;

/**
 * Turns a startup failure for want of a {@code ReactorScopeSpawner} or {@code RxScopeSpawner} bean
 * into a report that names the library missing from the class path and the dependency to add.
 *
 * <p>The starter defines the Reactor spawner when {@code reactor-core} and
 * {@code dev.senders:reactor-adapter} are both on the class path, and the RxJava spawner when
 * {@code rxjava} 3 and {@code dev.senders:rxjava-adapter} are. The adapters come with the starter,
 * so what is usually missing is the reactive library itself (an application without WebFlux that
 * injects the Reactor spawner) or an adapter excluded from the build. Analyses only those two bean
 * types, and only when one of their libraries is missing; any other missing bean is left to
 * Spring Boot's own analysis, which runs after this one.
 *
 * <p>Registered in {@code META-INF/spring.factories}; Spring Boot creates it with the failed
 * application's bean factory, whose class loader it searches, and runs it on the thread that
 * failed the startup.
 */
@Order(Ordered.HIGHEST_PRECEDENCE)      // before Spring Boot's analysis, which would only suggest defining one
final class MissingSpawnerFailureAnalyzer extends AbstractFailureAnalyzer<NoSuchBeanDefinitionException> {

    /** A spawner bean and the libraries its auto-configuration needs. */
    private record Spawner(String type, String what, List<Library> libraries) {
    }

    /** A library the starter looks for, by one of its classes, and its Maven coordinates. */
    private record Library(String className, String groupId, String artifactId, @Nullable String version) {

        @Nullable String dependency() {
            return "    <dependency>\n"
                    + "      <groupId>" + groupId + "</groupId>\n"
                    + "      <artifactId>" + artifactId + "</artifactId>\n"
                    + (version == null ? "" : "      <version>" + version + "</version>\n")
                    + "    </dependency>";
        }
    }

    private static final String SENDERS_VERSION = "<!-- the version of senders-spring-boot-starter -->";

    private static final List<Spawner> SPAWNERS = List.of(
            new Spawner("dev.senders.spring.boot.ReactorScopeSpawner", "Reactor work (Mono, Flux)", List.of(
                    new Library("reactor.core.publisher.Mono", "io.projectreactor", "reactor-core", null),
                    new Library("dev.senders.reactor.ReactorSenders", "dev.senders", "reactor-adapter", SENDERS_VERSION))),
            new Spawner("dev.senders.spring.boot.RxScopeSpawner", "RxJava 3 work (Completable, Single, ...)", List.of(
                    new Library("io.reactivex.rxjava3.core.Completable", "io.reactivex.rxjava3", "rxjava", null),
                    new Library("dev.senders.rxjava3.RxSenders", "dev.senders", "rxjava-adapter", SENDERS_VERSION))));

    private final ClassLoader classLoader;

    /**
     * Looks for the libraries with the application's bean class loader.
     *
     * @param beanFactory the failed application's bean factory (Spring Boot passes it)
     */
    MissingSpawnerFailureAnalyzer(BeanFactory beanFactory) {
        ClassLoader loader = beanFactory instanceof ConfigurableBeanFactory configurable
                ? configurable.getBeanClassLoader() : null;
        this.classLoader = loader != null ? loader : MissingSpawnerFailureAnalyzer.class.getClassLoader();
    }

    @Override
    protected @Nullable FailureAnalysis analyze(Throwable rootFailure, NoSuchBeanDefinitionException cause) {
        Class<?> type = cause.getResolvableType() == null ? null : cause.getResolvableType().resolve();
        if (type == null) {
            return null;
        }
        for (Spawner spawner : SPAWNERS) {
            if (spawner.type().equals(type.getName())) {
                return analyze(rootFailure, spawner);
            }
        }
        return null;
    }

    private @Nullable FailureAnalysis analyze(Throwable rootFailure, Spawner spawner) {
        List<Library> missing = new ArrayList<>();
        for (Library library : spawner.libraries()) {
            if (!ClassUtils.isPresent(library.className(), classLoader)) {
                missing.add(library);
            }
        }
        if (missing.isEmpty()) {
            return null;                 // missing for another reason: Spring Boot's analysis says which
        }
        String simpleName = spawner.type().substring(spawner.type().lastIndexOf('.') + 1);
        StringBuilder description = new StringBuilder()
                .append("A bean of type ").append(simpleName)
                .append(" is required, but the senders starter defines it only when ");
        appendNames(description, spawner.libraries());
        description.append(" are on the class path, and ");
        appendNames(description, missing);
        description.append(missing.size() == 1 ? " is" : " are").append(" not.");
        StringBuilder action = new StringBuilder()
                .append("To spawn ").append(spawner.what()).append(" into the application scope, add ")
                .append(missing.size() == 1 ? "this dependency" : "these dependencies")
                .append(" to your build:\n\n");
        for (Library library : missing) {
            action.append(library.dependency()).append('\n');
        }
        action.append("\n(Gradle:");
        for (Library library : missing) {
            action.append(" implementation '").append(library.groupId()).append(':').append(library.artifactId())
                    .append('\'');
        }
        action.append(")\n");
        action.append("\nOr inject ScopeSpawner, which spawns senders and needs no adapter.");
        return new FailureAnalysis(description.toString(), action.toString(), rootFailure);
    }

    private static void appendNames(StringBuilder out, List<Library> libraries) {
        for (int i = 0; i < libraries.size(); i++) {
            if (i > 0) {
                out.append(i == libraries.size() - 1 ? " and " : ", ");
            }
            out.append(libraries.get(i).groupId()).append(':').append(libraries.get(i).artifactId());
        }
    }
}
