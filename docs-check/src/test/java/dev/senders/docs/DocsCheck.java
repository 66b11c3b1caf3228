package dev.senders.docs;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

/**
 * Checks markdown against a source tree. What counts as a reference (inline code, that is text
 * between backticks outside fenced blocks, and markdown links):
 * <ul>
 *   <li>a relative link {@code [text](path#anchor)}: the file must exist and, for a markdown
 *       target, the anchor must be one of its headings;</li>
 *   <li>a path ({@code stress/run-jcstress.sh}, {@code dev/senders/Foo.java}, a directory ending
 *       in {@code /}): a file or directory of the repository, relative to its root or to the doc,
 *       or the tail of a repository path;</li>
 *   <li>a class name ({@code CountingScope}, {@code Sender<Void>}, {@code StartsOn$OnExecutor}):
 *       a type declared in a {@code src/&#42;/java} file, or on the class path, or in the JDK;
 *       a name ending in {@code Test} must be a test class of the repository;</li>
 *   <li>a member ({@code Scopes.joinOrStop(...)}, {@code Hooks#onErrorDropped},
 *       {@code ScopeState.JOINED}, {@code SpawnTest.someRule}): the class as above and, for a class
 *       of the repository, the name declared in its source or a supertype's; for a library class,
 *       a public member found by reflection;</li>
 *   <li>a qualified name under {@code dev.senders}: a package, a class, or a string the sources
 *       spell (a JFR event name, a system property).</li>
 * </ul>
 * Anything else in backticks (expressions, lower-case names, constants alone) is not a reference.
 * Fenced {@code java} blocks of the files given to {@link #checkSnippets} are compiled; the
 * line before a block may hold {@code <!-- docs-check: skip REASON -->} (not compiled, the reason
 * is required) or {@code <!-- docs-check: context DECLARATIONS -->} (Java declarations the
 * snippet may use, e.g. {@code Sender<User> findUser(String id) { return null; }}).
 */
final class DocsCheck {

    /** One stale reference: where it is and what is missing. */
    record Problem(String file, int line, String message) {
        @Override
        public String toString() {
            return file + ":" + line + ": " + message;
        }
    }

    private static final Pattern FENCE = Pattern.compile("^\\s*(```+|~~~+)\\s*([\\w+-]*).*$");
    private static final Pattern INLINE = Pattern.compile("(`+)(.+?)\\1");
    private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)(?:\\s+\"[^\"]*\")?\\)");
    private static final Pattern TYPE_DECL = Pattern.compile(
            "\\b(?:class|interface|enum|record|@interface)\\s+([A-Za-z_]\\w*)");
    private static final Pattern SUPERS = Pattern.compile(
            "\\b(?:extends|implements)\\s+([\\w.<>?,\\s]+?)\\s*(?:\\{|permits|implements|extends)");
    private static final Pattern CLASS_TOKEN = Pattern.compile(
            "([A-Z][A-Za-z0-9_]*(?:\\$[A-Z][A-Za-z0-9_]*)*)(?:<.*>)?(?:\\[\\])*(?:\\.class)?");
    private static final Pattern MEMBER_TOKEN = Pattern.compile(
            "((?:[a-z][a-z0-9_]*\\.)*(?:[A-Z][A-Za-z0-9_]*[.$])*[A-Z][A-Za-z0-9_]*)(?:<[^>]*>)?[.#]([A-Za-z_][A-Za-z0-9_]*)(\\(.*\\))?");
    private static final Pattern QUALIFIED = Pattern.compile("dev\\.senders(?:\\.[A-Za-z_][A-Za-z0-9_]*)+");
    private static final Pattern PATH_TOKEN = Pattern.compile("[\\w.@-]+(?:/[\\w.$@-]+)*/?");
    private static final Pattern MARKER = Pattern.compile("<!--\\s*docs-check:\\s*(skip|context)\\b(.*?)-->", Pattern.DOTALL);
    private static final Set<String> PATH_EXTENSIONS = Set.of(
            "java", "md", "sh", "xml", "properties", "json", "yml", "yaml", "imports", "txt", "csv", "kt");

    private final Path root;
    private final List<Path> repoFiles = new ArrayList<>();
    private final Set<String> repoPaths = new HashSet<>();
    /** simple type name -> source files declaring it (top level or nested). */
    private final Map<String, List<Path>> projectTypes = new HashMap<>();
    private final Map<Path, String> sources = new HashMap<>();
    /** simple name -> fully qualified names, from the class path and the JDK. */
    private final Map<String, List<String>> libraryTypes = new HashMap<>();
    private final String classPath;
    /** Simple names of classes of libraries that are not on this module's class path. */
    private final Set<String> externalNames = new HashSet<>();
    private String allSources;
    /** The repository's scripts (sh, py): output file names a doc may mention. */
    private String allScripts;
    /** Directory names .gitignore lists (build and run outputs: target/, results/). */
    private final Set<String> ignoredDirs = new HashSet<>();

    DocsCheck(Path root, String classPath) {
        this.root = root.toAbsolutePath().normalize();
        this.classPath = classPath;
        indexRepository();
        indexLibraries();
        try (var in = DocsCheck.class.getResourceAsStream("/external-names.txt")) {
            if (in != null) {
                new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).lines()
                        .map(l -> l.replaceFirst("#.*", "").trim()).filter(l -> !l.isEmpty())
                        .forEach(externalNames::add);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void indexRepository() {
        try (Stream<Path> walk = Files.walk(root)) {
            walk.filter(p -> {
                        String rel = root.relativize(p).toString().replace('\\', '/');
                        return !rel.startsWith(".git") && !rel.contains("/target/") && !rel.startsWith("target/")
                                && !rel.contains("/node_modules/");
                    })
                    .forEach(p -> {
                        String rel = root.relativize(p).toString().replace('\\', '/');
                        if (rel.isEmpty()) {
                            return;
                        }
                        repoPaths.add(Files.isDirectory(p) ? rel + "/" : rel);
                        if (Files.isRegularFile(p)) {
                            repoFiles.add(p);
                        }
                    });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        StringBuilder all = new StringBuilder();
        for (Path p : repoFiles) {
            String rel = root.relativize(p).toString().replace('\\', '/');
            if (rel.endsWith(".java") && rel.matches(".*src/[^/]+/java/.*") && !rel.contains("src/test/resources/")) {
                String text = read(p);
                sources.put(p, text);
                all.append(text).append('\n');
                Matcher m = TYPE_DECL.matcher(stripComments(text));
                while (m.find()) {
                    projectTypes.computeIfAbsent(m.group(1), k -> new ArrayList<>()).add(p);
                }
                String file = p.getFileName().toString();
                projectTypes.computeIfAbsent(file.substring(0, file.length() - 5), k -> new ArrayList<>());
                if (!projectTypes.get(file.substring(0, file.length() - 5)).contains(p)) {
                    projectTypes.get(file.substring(0, file.length() - 5)).add(p);
                }
            }
        }
        allSources = all.toString();
        StringBuilder scripts = new StringBuilder();
        for (Path p : repoFiles) {
            String n = p.getFileName().toString();
            if (n.endsWith(".sh") || n.endsWith(".py")) {
                scripts.append(read(p)).append('\n');
            }
        }
        allScripts = scripts.toString();
        Path gitignore = root.resolve(".gitignore");
        if (Files.isRegularFile(gitignore)) {
            read(gitignore).lines().map(String::trim).filter(l -> l.matches("[\\w.-]+/"))
                    .forEach(l -> ignoredDirs.add(l.substring(0, l.length() - 1)));
        }
    }

    private void indexLibraries() {
        for (String entry : classPath.split(java.io.File.pathSeparator)) {
            if (!entry.endsWith(".jar") || !Files.isRegularFile(Path.of(entry))) {
                continue;
            }
            try (JarFile jar = new JarFile(entry)) {
                jar.stream().map(e -> e.getName())
                        .filter(n -> n.endsWith(".class") && !n.endsWith("module-info.class"))
                        .forEach(this::addLibraryClass);
            } catch (IOException e) {
                throw new UncheckedIOException(entry, e);
            }
        }
        FileSystem jrt = FileSystems.getFileSystem(URI.create("jrt:/"));
        try (Stream<Path> walk = Files.walk(jrt.getPath("/modules"))) {
            walk.map(Path::toString).filter(n -> n.endsWith(".class"))
                    .map(n -> n.substring(n.indexOf('/', "/modules/".length()) + 1))
                    .forEach(this::addLibraryClass);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void addLibraryClass(String entryName) {
        String fqn = entryName.substring(0, entryName.length() - ".class".length()).replace('/', '.');
        String simple = fqn.substring(fqn.lastIndexOf('.') + 1);
        for (String part : simple.split("\\$")) {
            if (!part.isEmpty() && !Character.isDigit(part.charAt(0))) {
                libraryTypes.computeIfAbsent(part, k -> new ArrayList<>()).add(fqn);
            }
        }
    }

    // ------------------------------------------------------------------ references

    /** Every stale reference of the given markdown files (paths relative to the root). */
    List<Problem> checkReferences(List<String> docs) {
        List<Problem> problems = new ArrayList<>();
        for (String doc : docs) {
            Path file = root.resolve(doc);
            List<String> lines = read(file).lines().toList();
            boolean inFence = false;
            String fence = null;
            for (int i = 0; i < lines.size(); i++) {
                String line = lines.get(i);
                Matcher f = FENCE.matcher(line);
                if (f.matches() && (fence == null || f.group(1).startsWith(fence))) {
                    inFence = !inFence;
                    fence = inFence ? f.group(1) : null;
                    continue;
                }
                if (inFence) {
                    continue;
                }
                String where = doc;
                int lineNo = i + 1;
                Matcher code = INLINE.matcher(line);
                StringBuilder prose = new StringBuilder();
                int last = 0;
                while (code.find()) {
                    prose.append(line, last, code.start());
                    last = code.end();
                    boolean afterSlash = code.start() > 0 && line.charAt(code.start() - 1) == '/';
                    String message = afterSlash ? null : checkToken(code.group(2).trim(), file);
                    if (message != null) {
                        problems.add(new Problem(where, lineNo, message));
                    }
                }
                prose.append(line.substring(last));
                Matcher link = LINK.matcher(prose);
                while (link.find()) {
                    String message = checkLink(link.group(1), file);
                    if (message != null) {
                        problems.add(new Problem(where, lineNo, message));
                    }
                }
                for (String id : decisionIdsCited(line)) {
                    if (!decisionIds().contains(id)) {
                        problems.add(new Problem(where, lineNo, "decision " + id + " is not in docs/decisions.md"));
                    }
                }
            }
        }
        return problems;
    }

    private static final Pattern DECISION_WORD = Pattern.compile("\\b[Dd]ecisions?\\s+([A-Z]{1,3}[0-9]{1,2})\\b");
    private static final Pattern DECISION_LINK = Pattern.compile("\\[([^\\]]*)\\]\\(([^)]*decisions\\.md[^)]*)\\)");
    private static final Pattern DECISION_ID = Pattern.compile("\\b([A-Z]{1,3}[0-9]{1,2})\\b");
    private static final Pattern DECISION_ROW = Pattern.compile("^(?:\\|\\s*|- \\*\\*)([A-Z]{1,3}[0-9]{1,2})(?:\\s*\\||\\*\\*)");
    private Set<String> decisionIds;

    /** The ids docs/decisions.md defines: a table row's first cell, or a list item's bold lead. */
    private Set<String> decisionIds() {
        if (decisionIds == null) {
            decisionIds = new HashSet<>();
            Path decisions = root.resolve("docs/decisions.md");
            if (Files.isRegularFile(decisions)) {
                for (String line : read(decisions).lines().toList()) {
                    Matcher m = DECISION_ROW.matcher(line);
                    if (m.find()) {
                        decisionIds.add(m.group(1));
                    }
                }
            }
        }
        return decisionIds;
    }

    /** Decision ids a line cites: "decision S5", or ids in the text of a link to decisions.md. */
    private static List<String> decisionIdsCited(String line) {
        List<String> ids = new ArrayList<>();
        Matcher w = DECISION_WORD.matcher(line);
        while (w.find()) {
            ids.add(w.group(1));
        }
        Matcher l = DECISION_LINK.matcher(line);
        while (l.find()) {
            Matcher id = DECISION_ID.matcher(l.group(1));
            while (id.find()) {
                ids.add(id.group(1));
            }
        }
        return ids;
    }

    /** The problem with one inline-code token, or null if it is fine or not a reference. */
    String checkToken(String token, Path doc) {
        if (token.isEmpty() || token.contains(" ") || token.contains("*") || token.contains("{")) {
            return null;
        }
        if (looksLikePath(token)) {
            return resolvesAsPath(token, doc) ? null : "no file or directory `" + token + "` in the repository";
        }
        if (QUALIFIED.matcher(token).matches()) {
            return qualifiedExists(token) ? null
                    : "`" + token + "` is neither a package, a class nor a name spelled in the sources";
        }
        Matcher member = MEMBER_TOKEN.matcher(token);
        if (member.matches()) {
            return checkMember(member.group(1), member.group(2), token);
        }
        Matcher cls = CLASS_TOKEN.matcher(token);
        if (cls.matches() && cls.group(1).chars().anyMatch(Character::isLowerCase)) {
            String name = cls.group(1);
            String[] parts = name.split("\\$");
            String simple = parts[parts.length - 1];
            if (simple.endsWith("Test") || simple.endsWith("Tests")) {
                return projectTypes.containsKey(simple) ? null : "no test class `" + simple + "` in the repository";
            }
            if (isPlaceholder(name)) {
                return null;
            }
            for (String part : parts) {
                if (!knownType(part)) {
                    return "no class `" + part + "` in the repository, on the class path or in the JDK";
                }
            }
        }
        return null;
    }

    /** A pattern such as {@code XToSender} or {@code XToY}: a word of the name is a lone X or Y. */
    private static boolean isPlaceholder(String name) {
        for (String word : name.split("(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")) {
            if (word.equals("X") || word.equals("Y")) {
                return true;
            }
        }
        return false;
    }

    /** A type of the repository, of the class path or the JDK, a listed external one, or a JFR event name. */
    private boolean knownType(String simple) {
        return projectTypes.containsKey(simple) || libraryTypes.containsKey(simple) || externalNames.contains(simple)
                || allSources.contains("\"dev.senders." + simple + "\"");
    }

    private boolean looksLikePath(String token) {
        if (!PATH_TOKEN.matcher(token).matches() || token.startsWith("dev.senders")) {
            return false;
        }
        if (token.contains("/")) {
            String first = token.substring(0, token.indexOf('/'));
            String lastSegment = token.endsWith("/") ? "" : token.substring(token.lastIndexOf('/') + 1);
            return token.endsWith("/") && repoPaths.contains(first + "/")
                    || lastSegment.contains(".") && PATH_EXTENSIONS.contains(ext(lastSegment))
                    || repoPaths.contains(first + "/") && !first.equals("dev");
        }
        return token.contains(".") && PATH_EXTENSIONS.contains(ext(token)) && !token.startsWith(".");
    }

    private static String ext(String name) {
        return name.substring(name.lastIndexOf('.') + 1).toLowerCase(Locale.ROOT);
    }

    private boolean resolvesAsPath(String token, Path doc) {
        String t = token.startsWith("./") ? token.substring(2) : token;
        for (String segment : t.split("/")) {
            if (ignoredDirs.contains(segment)) {
                return true; // a build or run output (.gitignore), made by the command the doc gives
            }
        }
        if (!t.contains("/") && allScripts.contains(t)) {
            return true; // a file a script of the repository writes
        }
        if (t.startsWith("META-INF/")) { // a jar entry: a module's resources, or generated into its classes
            try (Stream<Path> modules = Files.list(root)) {
                if (modules.anyMatch(m -> Files.exists(m.resolve("src/main/resources").resolve(t))
                        || Files.exists(m.resolve("target/classes").resolve(t)))) {
                    return true;
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        if (t.contains("...")) {
            Pattern elided = Pattern.compile("(.*/)?" + Pattern.quote(t).replace("...", "\\E.*\\Q") + "/?");
            return repoPaths.stream().anyMatch(p -> elided.matcher(p).matches());
        }
        String bare = t.endsWith("/") ? t.substring(0, t.length() - 1) : t;
        if (repoPaths.contains(bare) || repoPaths.contains(bare + "/")) {
            return true;
        }
        Path rel = doc.getParent().resolve(bare).normalize();
        if (rel.startsWith(root) && Files.exists(rel)) {
            return true;
        }
        String tail = "/" + bare;
        for (String p : repoPaths) {
            String q = p.endsWith("/") ? p.substring(0, p.length() - 1) : p;
            if (q.endsWith(tail)) {
                return true;
            }
        }
        return false;
    }

    private boolean qualifiedExists(String token) {
        String asPath = token.replace('.', '/');
        for (String p : repoPaths) {
            if (p.endsWith("/" + asPath + "/") || p.endsWith("/" + asPath + ".java")) {
                return true;
            }
        }
        String outer = token.substring(token.lastIndexOf('.') + 1);
        if (projectTypes.containsKey(outer) && allSources.contains("package " + token.substring(0, token.lastIndexOf('.')) + ";")) {
            return true;
        }
        if (allSources.contains("\"" + token + "\"") || allSources.contains("\"" + token + ".")
                || allSources.contains("module " + token + " ")) {
            return true;
        }
        // dev.senders.Hooks.onErrorDropped: a member of a qualified class
        int dot = token.lastIndexOf('.');
        String owner = token.substring(0, dot);
        String ownerSimple = owner.substring(owner.lastIndexOf('.') + 1);
        return Character.isUpperCase(ownerSimple.charAt(0)) && qualifiedExists(owner)
                && declaresMember(ownerSimple, token.substring(dot + 1), new HashSet<>());
    }

    private String checkMember(String owner, String member, String token) {
        String ownerSimple = owner.substring(Math.max(owner.lastIndexOf('.'), owner.lastIndexOf('$')) + 1);
        if (!Character.isUpperCase(ownerSimple.charAt(0))) {
            return null;
        }
        List<Path> files = projectTypes.get(ownerSimple);
        if (files != null && !files.isEmpty()) {
            if (declaresMember(ownerSimple, member, new HashSet<>()) || externalNames.contains(ownerSimple)
                    || libraryTypes.getOrDefault(ownerSimple, List.of()).stream().anyMatch(f -> libraryHasMember(f, member))) {
                return null; // ours, or a library class of the same simple name (Reactor's Schedulers)
            }
            return "`" + token + "`: " + ownerSimple + " (" + rel(files.get(0)) + ") has no member `" + member + "`";
        }
        if (ownerSimple.endsWith("Test")) {
            return "no test class `" + ownerSimple + "` in the repository";
        }
        List<String> fqns = libraryTypes.get(ownerSimple);
        if (externalNames.contains(ownerSimple) || isPlaceholder(ownerSimple)
                || ownerSimple.equals("Class") && member.equals("method")) { // the pattern Class#method itself
            return null;
        }
        if (fqns == null) {
            if (ownerSimple.chars().anyMatch(Character::isLowerCase)) {
                return "no class `" + ownerSimple + "` in the repository, on the class path or in the JDK";
            }
            return null; // a constant such as OPEN.x is not a reference
        }
        for (String fqn : fqns) {
            if (libraryHasMember(fqn, member)) {
                return null;
            }
        }
        return "`" + token + "`: " + ownerSimple + " (" + fqns.get(0) + ") has no public member `" + member + "`";
    }

    private boolean declaresMember(String type, String member, Set<String> seen) {
        if (!seen.add(type)) {
            return false;
        }
        List<Path> files = projectTypes.get(type);
        if (files == null) {
            List<String> fqns = libraryTypes.get(type);
            return fqns != null && fqns.stream().anyMatch(f -> libraryHasMember(f, member));
        }
        Pattern word = Pattern.compile("\\b" + Pattern.quote(member) + "\\b");
        for (Path f : files) {
            String text = stripComments(sources.get(f));
            if (word.matcher(text).find()) {
                return true;
            }
            Matcher s = SUPERS.matcher(text);
            while (s.find()) {
                for (String sup : s.group(1).replaceAll("<[^<>]*>", "").replaceAll("<[^<>]*>", "").split(",")) {
                    String name = sup.trim();
                    name = name.substring(name.lastIndexOf('.') + 1);
                    if (!name.isEmpty() && declaresMember(name, member, seen)) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    private static boolean libraryHasMember(String fqn, String member) {
        Class<?> c;
        try {
            c = Class.forName(fqn, false, DocsCheck.class.getClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            return true; // cannot look inside: not this check's business
        }
        try {
            for (var m : c.getMethods()) {
                if (m.getName().equals(member)) {
                    return true;
                }
            }
            for (var f : c.getFields()) {
                if (f.getName().equals(member)) {
                    return true;
                }
            }
            for (var f : c.getDeclaredFields()) {
                if (f.getName().equals(member)) {
                    return true; // a documented constant that is not public (Reactor's Hooks.KEY_ON_ERROR_DROPPED)
                }
            }
            for (var n : c.getClasses()) {
                if (n.getSimpleName().equals(member)) {
                    return true;
                }
            }
            for (var m : c.getDeclaredMethods()) {
                if (m.getName().equals(member)) {
                    return true;
                }
            }
            if (c.isInterface()) {
                for (var m : Object.class.getMethods()) {
                    if (m.getName().equals(member)) {
                        return true;
                    }
                }
            }
            return member.equals("class") || member.equals("new");
        } catch (LinkageError e) {
            return true;
        }
    }

    private String checkLink(String target, Path doc) {
        if (target.matches("^[a-zA-Z][a-zA-Z0-9+.-]*:.*") || target.startsWith("//")) {
            return null; // http:, https:, mailto:
        }
        String path = target;
        String anchor = null;
        int hash = target.indexOf('#');
        if (hash >= 0) {
            path = target.substring(0, hash);
            anchor = target.substring(hash + 1);
        }
        Path resolved = path.isEmpty() ? doc : doc.getParent().resolve(path).normalize();
        if (!resolved.startsWith(root) || !Files.exists(resolved)) {
            return "link to `" + target + "`: no file `" + path + "` (from " + rel(doc.getParent()) + "/)";
        }
        if (anchor != null && !anchor.isEmpty() && resolved.toString().endsWith(".md")
                && !anchors(resolved).contains(anchor)) {
            return "link to `" + target + "`: " + rel(resolved) + " has no heading with the anchor `#" + anchor + "`";
        }
        return null;
    }

    /** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
    private Set<String> anchors(Path md) {
        Set<String> result = new HashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        boolean inFence = false;
        for (String line : read(md).lines().toList()) {
            if (FENCE.matcher(line).matches()) {
                inFence = !inFence;
                continue;
            }
            if (inFence || !line.startsWith("#")) {
                Matcher a = Pattern.compile("<a (?:name|id)=\"([^\"]+)\"").matcher(line);
                while (a.find()) {
                    result.add(a.group(1));
                }
                continue;
            }
            String text = line.replaceFirst("^#+\\s*", "").trim();
            String slug = text.toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N} _-]", "").replace(' ', '-');
            int n = seen.merge(slug, 1, Integer::sum) - 1;
            result.add(n == 0 ? slug : slug + "-" + n);
        }
        return result;
    }

    // ------------------------------------------------------------------ snippets

    /** Every fenced java block of the given files that does not compile, with javac's messages. */
    List<Problem> checkSnippets(List<String> docs) {
        List<Problem> problems = new ArrayList<>();
        List<Snippet> snippets = snippets(docs, problems);
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        // All snippets in one compilation, each in its first wrapper; only those that fail then
        // try the other wrappers one by one (a snippet may be statements or members).
        List<JavaFileObject> units = new ArrayList<>();
        for (Snippet s : snippets) {
            units.add(unit(s.name(), String.join("\n", source(s, wrappers(s).get(0), new ArrayList<>())) + "\n"));
        }
        units.add(unit("DocsPrelude", prelude()));
        DiagnosticCollector<JavaFileObject> batch = new DiagnosticCollector<>();
        boolean allCompile = run(javac, batch, units);
        Set<String> failing = new HashSet<>();
        for (Diagnostic<? extends JavaFileObject> d : batch.getDiagnostics()) {
            if (d.getKind() == Diagnostic.Kind.ERROR && d.getSource() != null) {
                failing.add(d.getSource().getName().replaceFirst(".*/", "").replace(".java", ""));
            }
        }
        for (Snippet s : snippets) {
            if (allCompile || !failing.contains(s.name()) && !failing.contains("DocsPrelude")) {
                continue;
            }
            String error = compile(javac, s);
            if (error != null) {
                problems.add(new Problem(s.doc(), s.fenceLine(), "the java snippet does not compile: " + error));
            }
        }
        problems.sort(java.util.Comparator.comparing(Problem::file).thenComparingInt(Problem::line));
        return problems;
    }

    /** The package a Spring test snippet is compiled into: where its application and beans are (test sources). */
    static final String SPRING_SNIPPET_PACKAGE = "dev.senders.docs.spring";

    private static final Pattern TOP_CLASS = Pattern.compile("^(?:public\\s+|final\\s+|abstract\\s+)*class\\s+(\\w+)", Pattern.MULTILINE);

    /**
     * Every fenced java block of {@code docs} that is a Spring test ({@code @SpringBootTest}) compiled
     * as written, as a whole compilation unit with its own imports and nothing else (no prelude), in
     * the package {@value #SPRING_SNIPPET_PACKAGE}, and run with the JUnit Platform: a problem for
     * each that does not compile, has no test, or has a test that does not pass, and one when the
     * docs hold no such snippet.
     */
    List<Problem> runSpringTests(List<String> docs) {
        List<Problem> problems = new ArrayList<>();
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        int found = 0;
        for (Snippet s : snippets(docs, problems)) {
            if (!s.body().contains("@SpringBootTest")) {
                continue;
            }
            found++;
            Matcher c = TOP_CLASS.matcher(s.body());
            if (!c.find()) {
                problems.add(new Problem(s.doc(), s.fenceLine(), "the Spring test snippet declares no top-level class"));
                continue;
            }
            String name = c.group(1);
            List<String> src = new ArrayList<>();
            List<Integer> from = new ArrayList<>();
            src.add("package " + SPRING_SNIPPET_PACKAGE + ";");
            from.add(0);
            List<String> lines = s.lines();
            for (int k = 0; k < lines.size(); k++) {
                src.add(lines.get(k).trim().equals("...") ? "" : lines.get(k));
                from.add(s.fenceLine() + 1 + k);
            }
            Path out = tempDir();
            String errors = javacErrors(javac, name, String.join("\n", src) + "\n", from, s.doc(), out, false);
            if (errors != null) {
                problems.add(new Problem(s.doc(), s.fenceLine(),
                        "the Spring test snippet does not compile as written (it must carry its imports): " + errors));
                continue;
            }
            String failure = SpringSnippetRunner.run(out, SPRING_SNIPPET_PACKAGE + "." + name);
            if (failure != null) {
                problems.add(new Problem(s.doc(), s.fenceLine(), "the Spring test snippet does not pass: " + failure));
            }
        }
        if (found == 0) {
            problems.add(new Problem(docs.get(0), 1, "no Spring test snippet (@SpringBootTest) in " + docs));
        }
        return problems;
    }

    /** The fenced java blocks of {@code docs} not marked skip; a skip marker without a reason is a problem. */
    private List<Snippet> snippets(List<String> docs, List<Problem> problems) {
        List<Snippet> snippets = new ArrayList<>();
        int counter = 0;
        for (String doc : docs) {
            List<String> lines = read(root.resolve(doc)).lines().toList();
            for (int i = 0; i < lines.size(); i++) {
                Matcher f = FENCE.matcher(lines.get(i));
                if (!f.matches()) {
                    continue;
                }
                int open = i;
                int close = open + 1;
                while (close < lines.size() && !lines.get(close).trim().startsWith(f.group(1))) {
                    close++;
                }
                i = close;
                if (!f.group(2).equals("java")) {
                    continue;
                }
                String marker = markerBefore(lines, open);
                String context = "";
                if (marker != null) {
                    Matcher m = MARKER.matcher(marker);
                    m.find();
                    if (m.group(1).equals("skip")) {
                        if (m.group(2).trim().length() < 3) {
                            problems.add(new Problem(doc, open + 1,
                                    "a docs-check skip marker must say why the snippet is not compiled"));
                        }
                        continue;
                    }
                    context = m.group(2).trim().replace('\n', ' ');
                }
                String body = String.join("\n", lines.subList(open + 1, Math.min(close, lines.size())));
                snippets.add(new Snippet("Snippet" + (counter++), doc, open + 1, body, context));
            }
        }
        return snippets;
    }

    private static String markerBefore(List<String> lines, int fenceLine) {
        int j = fenceLine - 1;
        while (j >= 0 && lines.get(j).isBlank()) {
            j--;
        }
        if (j < 0 || !lines.get(j).trim().endsWith("-->")) {
            return null;
        }
        StringBuilder comment = new StringBuilder();
        for (int k = j; k >= 0; k--) {
            comment.insert(0, lines.get(k) + "\n");
            if (lines.get(k).contains("<!--")) {
                break;
            }
        }
        return MARKER.matcher(comment).find() ? comment.toString() : null;
    }


    private static final Pattern DECLARATION = Pattern.compile(
            "(@|class |record |interface |enum |static |public |private |protected |final |abstract ).*"
            + "|[\\w<>\\[\\], ?]+\\s+\\w+\\(.*\\)\\s*(throws [\\w., ]+)?\\s*\\{\\s*");

    private static final String[] WRAPPERS = {
        " void snippet() throws Throwable {", // statements
        null,                                 // members of the class
        " <T> Object snippet() throws Throwable {", // statements that return a value
    };

    /** A fenced java block: its class name, doc, the fence's line and the context its marker gives. */
    private record Snippet(String name, String doc, int fenceLine, String body, String context) {
        List<String> lines() {
            return List.of(body.split("\n", -1));
        }
    }

    /** The wrappers to try, the likeliest first: members when a line at the margin declares something. */
    private static List<String> wrappers(Snippet s) {
        List<String> order = new ArrayList<>(java.util.Arrays.asList(WRAPPERS));
        if (s.lines().stream().anyMatch(l -> DECLARATION.matcher(l).matches())) {
            order.add(0, order.remove(1));
        }
        return order;
    }

    /** The snippet's compilation unit, line by line; {@code from} gets each line's doc line (0: generated). */
    private static List<String> source(Snippet s, String wrapper, List<Integer> from) {
        List<String> bodyLines = s.lines();
        int firstLine = s.fenceLine() + 1;
        List<String> src = new ArrayList<>();
        for (int k = 0; k < bodyLines.size(); k++) {
            if (bodyLines.get(k).startsWith("import ")) {
                src.add(bodyLines.get(k));
                from.add(firstLine + k);
            }
        }
        src.add("class " + s.name() + " extends DocsPrelude {");
        from.add(0);
        src.add(s.context());
        from.add(s.fenceLine() - 1);
        if (wrapper != null) {
            src.add(wrapper);
            from.add(0);
        }
        for (int k = 0; k < bodyLines.size(); k++) {
            String line = bodyLines.get(k);
            boolean elided = line.trim().equals("...") || line.startsWith("import ") || line.startsWith("package ");
            src.add(elided ? "" : line);
            from.add(firstLine + k);
        }
        src.add(wrapper != null ? "}}" : "}");
        from.add(0);
        return src;
    }

    /** Null when the snippet compiles in one of the wrappers, else the errors of the likeliest one. */
    private String compile(JavaCompiler javac, Snippet s) {
        String best = null;
        for (String wrapper : wrappers(s)) {
            List<Integer> from = new ArrayList<>();
            String source = String.join("\n", source(s, wrapper, from)) + "\n";
            String errors = javacErrors(javac, s.name(), source, from, s.doc());
            if (errors == null) {
                return null;
            }
            if (best == null || score(errors) < score(best)) {
                best = errors;
            }
        }
        return best;
    }

    private boolean run(JavaCompiler javac, DiagnosticCollector<JavaFileObject> diagnostics, List<JavaFileObject> units) {
        return run(javac, diagnostics, units, tempDir());
    }

    private static Path tempDir() {
        try {
            return Files.createTempDirectory("docs-check");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private boolean run(JavaCompiler javac, DiagnosticCollector<JavaFileObject> diagnostics, List<JavaFileObject> units, Path out) {
        return javac.getTask(new StringWriter(), fileManager(javac), diagnostics,
                List.of("-proc:none", "-classpath", classPath, "-d", out.toString(), "-Xlint:none", "-nowarn"),
                null, units).call();
    }

    /** How bad a wrapper's errors are: a syntax error means the wrong wrapper, a missing name a stale snippet. */
    private static int score(String errors) {
        int score = 0;
        for (String line : errors.split("\n")) {
            if (!line.isBlank()) {
                score += line.contains("expected") || line.contains("illegal start") ? 10 : 1;
            }
        }
        return score;
    }

    /** Compiles the unit with the prelude; null when it compiles, else the errors at their doc lines. */
    private String javacErrors(JavaCompiler javac, String name, String source, List<Integer> docLines, String doc) {
        return javacErrors(javac, name, source, docLines, doc, tempDir(), true);
    }

    /** As above, into {@code out}; with the prelude or, for a whole compilation unit, without. */
    private String javacErrors(JavaCompiler javac, String name, String source, List<Integer> docLines, String doc, Path out,
            boolean withPrelude) {
        List<JavaFileObject> units = withPrelude ? List.of(unit(name, source), unit("DocsPrelude", prelude()))
                : List.of(unit(name, source));
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        if (run(javac, diagnostics, units, out)) {
            return null;
        }
        StringBuilder errors = new StringBuilder();
        for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
            if (d.getKind() != Diagnostic.Kind.ERROR) {
                continue;
            }
            boolean inSnippet = d.getSource() != null && d.getSource().getName().endsWith(name + ".java");
            int index = (int) d.getLineNumber() - 1;
            String at = inSnippet && index >= 0 && index < docLines.size() && docLines.get(index) > 0
                    ? doc + ":" + docLines.get(index)
                    : inSnippet ? doc + " (generated wrapper)" : "DocsPrelude.java:" + d.getLineNumber();
            String message = d.getMessage(Locale.ROOT).lines()
                    .filter(l -> !l.trim().startsWith("location:"))
                    .map(String::trim).reduce((a, b) -> a + " (" + b + ")").orElse("");
            errors.append("\n    ").append(at).append(": ").append(message);
        }
        return errors.toString();
    }

    private StandardJavaFileManager fileManager;

    /** One file manager for every compilation: it indexes the class path once. */
    private StandardJavaFileManager fileManager(JavaCompiler javac) {
        if (fileManager == null) {
            fileManager = javac.getStandardFileManager(null, Locale.ROOT, null);
        }
        return fileManager;
    }

    private static JavaFileObject unit(String name, String source) {
        return new SimpleJavaFileObject(URI.create("string:///" + name + ".java"), JavaFileObject.Kind.SOURCE) {
            @Override
            public CharSequence getCharContent(boolean ignoreEncodingErrors) {
                return source;
            }
        };
    }

    private static String prelude() {
        try (var in = DocsCheck.class.getResourceAsStream("/DocsPrelude.java")) {
            return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    // ------------------------------------------------------------------ helpers

    private String rel(Path p) {
        return root.relativize(p.toAbsolutePath().normalize()).toString().replace('\\', '/');
    }

    private static String read(Path p) {
        try {
            return Files.readString(p);
        } catch (IOException e) {
            throw new UncheckedIOException(p.toString(), e);
        }
    }

    private static String stripComments(String java) {
        return java.replaceAll("(?s)/\\*.*?\\*/", " ").replaceAll("//[^\n]*", " ");
    }
}
