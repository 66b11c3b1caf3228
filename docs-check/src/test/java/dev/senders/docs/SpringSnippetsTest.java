package dev.senders.docs;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The Spring test snippets of the docs run as written: each {@code @SpringBootTest} block of the
 * README, the guide and the Spring modules' READMEs compiles with only its own imports and passes
 * against {@code dev.senders.docs.spring.SnippetApp} (run on both Spring Boot lines: this module's
 * default and its {@code spring-boot-4.0} profile).
 */
class SpringSnippetsTest {

    static final List<String> SPRING_DOCS = List.of("README.md", "docs/guide.md", "senders-test/README.md",
            "senders-spring-boot-starter/README.md");

    @Test
    void everySpringTestSnippetCompilesWithItsImportsAndPasses() {
        DocsCheck check = new DocsCheck(Docs.root(), Docs.classPath());
        List<DocsCheck.Problem> problems = check.runSpringTests(SPRING_DOCS);
        assertTrue(problems.isEmpty(), () -> Docs.report(problems));
    }
}
