package dev.senders.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** Where the repository is, which markdown files are its docs, and the class path to compile with. */
final class Docs {
    private Docs() {
    }

    /** The repository root: the parent of this module's directory. */
    static Path root() {
        return Path.of(System.getProperty("basedir", ".")).toAbsolutePath().normalize().getParent();
    }

    /** The test class path (Surefire's property; the JVM's when run otherwise). */
    static String classPath() {
        return System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    }

    /** README.md, docs/*.md and each module's README.md (examples/README.md included). */
    static List<String> markdown(Path root) {
        List<String> docs = new ArrayList<>();
        docs.add("README.md");
        try (Stream<Path> d = Files.list(root.resolve("docs")); Stream<Path> m = Files.list(root)) {
            d.filter(p -> p.toString().endsWith(".md")).sorted()
                    .forEach(p -> docs.add("docs/" + p.getFileName()));
            m.filter(p -> Files.isRegularFile(p.resolve("README.md")) && Files.isRegularFile(p.resolve("pom.xml")))
                    .sorted().forEach(p -> docs.add(p.getFileName() + "/README.md"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return docs;
    }

    static String report(List<DocsCheck.Problem> problems) {
        StringBuilder s = new StringBuilder(problems.size() + " stale reference(s) in the docs:");
        problems.forEach(p -> s.append("\n  ").append(p));
        return s.toString();
    }
}
