package dev.senders.docs;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The repository's docs name only what exists: every file, class, method and test a doc mentions
 * (README.md, docs/*.md, each module's README.md), and every java snippet of README.md and
 * docs/guide.md compiles against the published modules. A failure lists file:line and what is
 * missing.
 */
class DocsReferencesTest {

    private static DocsCheck check;
    private static Path root;

    @BeforeAll
    static void index() {
        root = Docs.root();
        check = new DocsCheck(root, Docs.classPath());
    }

    @Test
    void everyFileClassMethodAndTestADocNamesExists() {
        List<DocsCheck.Problem> problems = check.checkReferences(Docs.markdown(root));
        assertTrue(problems.isEmpty(), () -> Docs.report(problems));
    }

    @Test
    void everyJavaSnippetOfTheReadmeAndTheGuideCompiles() {
        List<DocsCheck.Problem> problems = check.checkSnippets(List.of("README.md", "docs/guide.md"));
        assertTrue(problems.isEmpty(), () -> Docs.report(problems));
    }
}
