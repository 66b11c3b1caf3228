package dev.senders.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Rules on the main code of the published modules, read from their sources: no import cycle
 * between files, and every package {@code @NullMarked} in its {@code package-info.java}.
 *
 * <p>The import graph has one node per {@code src/main/java} file of the given modules and an
 * edge from a file to each file of another package that one of its {@code import} lines names
 * ({@code import a.b.C;}, a nested {@code import a.b.C.D;} and {@code import static a.b.C.m;}
 * all name {@code a/b/C.java}; {@code import a.b.*;} names the files of {@code a.b} whose simple
 * name the importing file spells). References within a package are not imports and make no edge;
 * names outside the given modules (the JDK, libraries) make none either. A cycle is a strongly
 * connected set of files: each is reported once, as a shortest cycle through its first file
 * (by path), with the other files of the set, if any.
 */
final class SourceRules {

    private static final Pattern IMPORT =
            Pattern.compile("^\\s*import\\s+(static\\s+)?([\\w.]+?)(\\.\\*)?\\s*;", Pattern.MULTILINE);
    private static final Pattern NULL_MARKED = Pattern.compile("@(org\\.jspecify\\.annotations\\.)?NullMarked\\b");

    private final Path root;
    /** Repository-relative path of each main file, by the qualified name of its top-level type. */
    private final Map<String, String> files = new TreeMap<>();
    /** The package of each main file (by path). */
    private final Map<String, String> packageOf = new HashMap<>();
    /** Each package's directory (repository-relative), by package name. */
    private final Map<String, String> packageDirs = new TreeMap<>();

    SourceRules(Path root, List<String> modules) {
        this.root = root;
        for (String module : modules) {
            Path src = root.resolve(module).resolve("src/main/java");
            if (!Files.isDirectory(src)) {
                throw new IllegalArgumentException("no " + root.relativize(src) + ": is `" + module
                        + "` a module of the repository at " + root + "?");
            }
            try (Stream<Path> walk = Files.walk(src)) {
                walk.filter(p -> p.toString().endsWith(".java")).sorted().forEach(p -> {
                    String name = p.getFileName().toString();
                    if (name.equals("module-info.java")) {
                        return;
                    }
                    Path rel = src.relativize(p);
                    String pkg = rel.getParent() == null ? "" : rel.getParent().toString().replace('/', '.');
                    String path = root.relativize(p).toString();
                    packageDirs.putIfAbsent(pkg, root.relativize(p.getParent()).toString());
                    if (!name.equals("package-info.java")) {
                        String type = name.substring(0, name.length() - ".java".length());
                        files.put(pkg.isEmpty() ? type : pkg + "." + type, path);
                        packageOf.put(path, pkg);
                    }
                });
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /** Each package of the modules whose {@code package-info.java} is missing or not {@code @NullMarked}, as its directory and what is wrong. */
    List<String> packagesNotNullMarked() {
        List<String> problems = new ArrayList<>();
        packageDirs.forEach((pkg, dir) -> {
            Path info = root.resolve(dir).resolve("package-info.java");
            if (!Files.isRegularFile(info)) {
                problems.add(dir + "/: package " + pkg + " has no package-info.java; add one annotated @NullMarked"
                        + " (org.jspecify.annotations)");
            } else if (!NULL_MARKED.matcher(read(info)).find()) {
                problems.add(dir + "/package-info.java: package " + pkg + " is not @NullMarked; annotate the package"
                        + " declaration with @NullMarked (org.jspecify.annotations)");
            }
        });
        return problems;
    }

    /** The import edges: for each main file (by path), the files it imports, sorted. */
    Map<String, Set<String>> imports() {
        Map<String, Set<String>> graph = new TreeMap<>();
        for (String path : files.values()) {
            String text = read(root.resolve(path));
            String pkg = packageOf.get(path);
            Set<String> targets = new TreeSet<>();
            Matcher m = IMPORT.matcher(text);
            while (m.find()) {
                String name = m.group(2);
                if (m.group(3) != null && m.group(1) == null && !files.containsKey(name)) {
                    packageMembers(name).forEach((type, file) -> {
                        if (Pattern.compile("\\b" + Pattern.quote(type) + "\\b").matcher(text).find()) {
                            targets.add(file);
                        }
                    });
                    continue;
                }
                String file = fileOf(name);
                if (file != null && !packageOf.get(file).equals(pkg)) {
                    targets.add(file);
                }
            }
            graph.put(path, targets);
        }
        return graph;
    }

    /**
     * One strongly connected set of files: {@code files}, a shortest cycle through its first file
     * (that file repeated at the end), and {@code others}, the set's files not on that cycle.
     */
    record Cycle(List<String> files, List<String> others) {
        @Override
        public String toString() {
            return String.join(" -> ", files) + (others.isEmpty() ? "" : " (with " + String.join(", ", others) + ")");
        }
    }

    /** The import cycles, in the order of their first file. */
    List<Cycle> importCycles() {
        Map<String, Set<String>> graph = imports();
        List<Cycle> cycles = new ArrayList<>();
        for (Set<String> component : stronglyConnected(graph)) {
            if (component.size() < 2) {
                continue;
            }
            List<String> cycle = shortestCycle(graph, component, component.iterator().next());
            List<String> others = new ArrayList<>(component);
            others.removeAll(cycle);
            cycles.add(new Cycle(List.copyOf(cycle), List.copyOf(others)));
        }
        return cycles;
    }

    /** The file of the top-level type that {@code name} (a type, a nested type or a static member) lies in, or null. */
    private String fileOf(String name) {
        for (String n = name; ; ) {
            String f = files.get(n);
            if (f != null) {
                return f;
            }
            int dot = n.lastIndexOf('.');
            if (dot < 0) {
                return null;
            }
            n = n.substring(0, dot);
        }
    }

    private Map<String, String> packageMembers(String pkg) {
        Map<String, String> members = new LinkedHashMap<>();
        files.forEach((type, file) -> {
            if (packageOf.get(file).equals(pkg)) {
                members.put(type.substring(type.lastIndexOf('.') + 1), file);
            }
        });
        return members;
    }

    /** Tarjan's algorithm; each set sorted by path, the sets in the order of their first file. */
    private static List<Set<String>> stronglyConnected(Map<String, Set<String>> graph) {
        Map<String, Integer> index = new HashMap<>();
        Map<String, Integer> low = new HashMap<>();
        Deque<String> stack = new ArrayDeque<>();
        Set<String> onStack = new TreeSet<>();
        List<Set<String>> out = new ArrayList<>();
        int[] next = {0};
        for (String v : graph.keySet()) {
            if (!index.containsKey(v)) {
                connect(v, graph, index, low, stack, onStack, out, next);
            }
        }
        out.sort((a, b) -> a.iterator().next().compareTo(b.iterator().next()));
        return out;
    }

    /** Tarjan's visit, iterative (no recursion depth limit on long import chains). */
    private static void connect(String start, Map<String, Set<String>> graph, Map<String, Integer> index,
            Map<String, Integer> low, Deque<String> stack, Set<String> onStack, List<Set<String>> out, int[] next) {
        Deque<Map.Entry<String, java.util.Iterator<String>>> work = new ArrayDeque<>();
        index.put(start, next[0]);
        low.put(start, next[0]++);
        stack.push(start);
        onStack.add(start);
        work.push(Map.entry(start, graph.getOrDefault(start, Set.of()).iterator()));
        while (!work.isEmpty()) {
            String v = work.peek().getKey();
            java.util.Iterator<String> edges = work.peek().getValue();
            if (edges.hasNext()) {
                String w = edges.next();
                if (!index.containsKey(w)) {
                    index.put(w, next[0]);
                    low.put(w, next[0]++);
                    stack.push(w);
                    onStack.add(w);
                    work.push(Map.entry(w, graph.getOrDefault(w, Set.of()).iterator()));
                } else if (onStack.contains(w)) {
                    low.put(v, Math.min(low.get(v), index.get(w)));
                }
                continue;
            }
            work.pop();
            if (!work.isEmpty()) {
                String parent = work.peek().getKey();
                low.put(parent, Math.min(low.get(parent), low.get(v)));
            }
            if (low.get(v).equals(index.get(v))) {
                Set<String> component = new TreeSet<>();
                String w;
                do {
                    w = stack.pop();
                    onStack.remove(w);
                    component.add(w);
                } while (!w.equals(v));
                out.add(component);
            }
        }
    }

    /** A shortest path from {@code first} back to itself within {@code component} (breadth first). */
    private static List<String> shortestCycle(Map<String, Set<String>> graph, Set<String> component, String first) {
        Map<String, String> cameFrom = new HashMap<>();
        Deque<String> queue = new ArrayDeque<>(List.of(first));
        while (!queue.isEmpty()) {
            String v = queue.poll();
            for (String w : graph.get(v)) {
                if (w.equals(first)) {
                    List<String> cycle = new ArrayList<>();
                    for (String u = v; u != null; u = cameFrom.get(u)) {
                        cycle.add(0, u);
                    }
                    cycle.add(first);
                    return cycle;
                }
                if (component.contains(w) && !cameFrom.containsKey(w)) {
                    cameFrom.put(w, v);
                    queue.add(w);
                }
            }
        }
        throw new IllegalStateException(first + " is in a strongly connected set but on no cycle");
    }

    private static String read(Path p) {
        try {
            return Files.readString(p);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
