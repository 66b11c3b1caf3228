package dev.senders.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The check itself: a fixture repository (src/test/resources/fixture-repo) whose doc names a
 * missing class, method, file, test, test method, link target, anchor and decision id, and holds a
 * snippet that does not compile and a skip marker without a reason, gets each reported at its line, and
 * nothing else (the correct references and snippets of the same doc pass).
 */
class DocsCheckFixtureTest {

    private static DocsCheck check;

    @BeforeAll
    static void index() {
        Path fixture = Path.of(System.getProperty("basedir", ".")).toAbsolutePath()
                .resolve("src/test/resources/fixture-repo");
        check = new DocsCheck(fixture, Docs.classPath());
    }

    @Test
    void aStaleReferenceIsReportedWithItsLineAndWhatIsMissing() {
        List<String> found = check.checkReferences(List.of("docs/stale.md")).stream().map(Object::toString).toList();
        List<String> expected = List.of(
                "docs/stale.md:6: no class `FixtureGhost` in the repository, on the class path or in the JDK",
                "docs/stale.md:7: `FixtureKept.absent()`: FixtureKept (mod/src/main/java/demo/FixtureKept.java) has no member `absent`",
                "docs/stale.md:8: no file or directory `mod/src/main/java/demo/Gone.java` in the repository",
                "docs/stale.md:9: no test class `GoneTest` in the repository",
                "docs/stale.md:9: `FixtureKeptTest.gone_rule`: FixtureKeptTest (mod/src/test/java/demo/FixtureKeptTest.java) has no member `gone_rule`",
                "docs/stale.md:10: link to `gone.md`: no file `gone.md` (from docs/)",
                "docs/stale.md:10: link to `other.md#no-such-heading`: docs/other.md has no heading with the anchor `#no-such-heading`",
                "docs/stale.md:39: decision K7 is not in docs/decisions.md",
                "docs/stale.md:39: decision K9 is not in docs/decisions.md");
        assertEquals(expected, found, () -> String.join("\n", found));
    }

    @Test
    void aSnippetThatDoesNotCompileIsReportedWithJavacsMessageAtTheDocLine() {
        List<DocsCheck.Problem> found = check.checkSnippets(List.of("docs/stale.md"));
        assertEquals(2, found.size(), () -> Docs.report(found));
        DocsCheck.Problem broken = found.get(0);
        assertEquals(20, broken.line(), broken::toString);
        assertTrue(broken.message().contains("docs/stale.md:21: cannot find symbol")
                && broken.message().contains("absent()"), broken::toString);
        DocsCheck.Problem marker = found.get(1);
        assertEquals(30, marker.line(), marker::toString);
        assertTrue(marker.message().contains("must say why"), marker::toString);
    }
}
