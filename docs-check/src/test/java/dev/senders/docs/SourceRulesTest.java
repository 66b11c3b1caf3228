package dev.senders.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The main code of the five published modules has no import cycle between its files, and each of
 * its packages is {@code @NullMarked}; and the rules themselves, on a fixture
 * (src/test/resources/structure-fixture), report what they name and nothing else.
 */
class SourceRulesTest {

    static final List<String> PUBLISHED = List.of("sender-core", "reactor-adapter", "rxjava-adapter",
            "senders-spring-boot-starter", "senders-test");

    private static SourceRules fixture() {
        Path root = Path.of(System.getProperty("basedir", ".")).toAbsolutePath()
                .resolve("src/test/resources/structure-fixture");
        return new SourceRules(root, List.of("one", "two"));
    }

    @Test
    void noImportCycleBetweenMainFilesOfThePublishedModules() {
        List<SourceRules.Cycle> cycles = new SourceRules(Docs.root(), PUBLISHED).importCycles();
        assertTrue(cycles.isEmpty(), () -> cycles.size() + " import cycle(s) between main files; move what both"
                + " sides need to one side, or into a file of its own:\n  "
                + cycles.stream().map(Object::toString).collect(Collectors.joining("\n  ")));
    }

    @Test
    void everyPackageOfThePublishedModulesIsNullMarked() {
        List<String> problems = new SourceRules(Docs.root(), PUBLISHED).packagesNotNullMarked();
        assertTrue(problems.isEmpty(), () -> String.join("\n", problems));
    }

    @Test
    void aCycleThroughTwoPackagesIsReportedAsItsFiles_nestedAndStaticImportsCount() {
        SourceRules.Cycle first = fixture().importCycles().get(0);
        assertEquals(List.of("one/src/main/java/p/A.java", "one/src/main/java/q/B.java", "one/src/main/java/p/A.java"),
                first.files());
        assertEquals(List.of(), first.others());
    }

    @Test
    void aCycleAcrossModulesThroughAWildcardImportIsReportedWithTheOtherFilesOfItsSet() {
        List<SourceRules.Cycle> cycles = fixture().importCycles();
        assertEquals(2, cycles.size(), cycles::toString);
        assertEquals("two/src/main/java/r/E.java -> two/src/main/java/s/F.java -> two/src/main/java/r/E.java"
                + " (with two/src/main/java/t/H.java)",
                cycles.get(1).toString());
    }

    @Test
    void referencesWithinAPackageAndImportsInCommentsMakeNoEdge() {
        Map<String, Set<String>> edges = fixture().imports();
        assertEquals(Set.of(), edges.get("one/src/main/java/p/C.java"), "C refers to D of its own package");
        assertEquals(Set.of(), edges.get("one/src/main/java/p/D.java"), "D imports C of its own package");
        assertEquals(Set.of(), edges.get("two/src/main/java/s/G.java"), "G's import is in a comment");
        assertEquals(Set.of("two/src/main/java/r/E.java", "one/src/main/java/p/C.java", "two/src/main/java/t/H.java"),
                edges.get("two/src/main/java/s/F.java"));
    }

    @Test
    void aPackageWithoutPackageInfoOrWithoutNullMarkedIsReported() {
        assertEquals(List.of(
                "one/src/main/java/q/package-info.java: package q is not @NullMarked; annotate the package declaration"
                        + " with @NullMarked (org.jspecify.annotations)",
                "two/src/main/java/s/: package s has no package-info.java; add one annotated @NullMarked"
                        + " (org.jspecify.annotations)"),
                fixture().packagesNotNullMarked());
    }
}
