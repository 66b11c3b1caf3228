#!/usr/bin/env python3
"""Checks what `mvn -Prelease verify` left for Maven Central (used by scripts/release-check.sh).

  release_check.py <effective-pom.xml> <version>

For every published module (PUBLISHED below: directory and packaging):
  - its target/ holds the pom, and for a jar module the jar, -sources.jar and -javadoc.jar, and
    the CycloneDX SBOM (-cyclonedx.json and .xml), each with a GPG signature (.asc) that gpg
    verifies (GNUPGHOME is the throwaway key's);
  - the -sources.jar holds .java files, the -javadoc.jar an index.html, the jar classes;
  - the SBOM is CycloneDX describing this module (metadata.component's purl), listing the
    module's runtime dependencies of PUBLISHED_DEPENDS (and not JUnit, except senders-test, which
    is a JUnit extension);
  - its effective pom (the one Maven publishes, with the parent's inherited elements) has the
    elements Central requires: name, description, url, licenses (name and url), developers (a
    name), scm (connection, developerConnection, url), with no module path appended to the urls;
and the build's other modules (not published) skip deploy and are excluded from the Central
bundle; the Central plugin publishes to server 'central' and waits for a person (autoPublish
false), with its checksums on (it makes them when it builds the bundle, at deploy).

Prints one line per module; exits 1 naming every problem found.
"""
import json
import pathlib
import subprocess
import sys
import xml.etree.ElementTree as ET
import zipfile

NS = {"m": "http://maven.apache.org/POM/4.0.0"}
PUBLISHED = {  # artifactId -> (directory, packaging)
    "senders-parent": (".", "pom"),
    "senders-bom": ("senders-bom", "pom"),
    "sender-core": ("sender-core", "jar"),
    "reactor-adapter": ("reactor-adapter", "jar"),
    "rxjava-adapter": ("rxjava-adapter", "jar"),
    "senders-spring-boot-starter": ("senders-spring-boot-starter", "jar"),
    "senders-test": ("senders-test", "jar"),
}
# dependencies each module's SBOM must list (a sample of its runtime graph)
PUBLISHED_DEPENDS = {
    "sender-core": ["pkg:maven/org.jspecify/jspecify@"],
    "reactor-adapter": ["pkg:maven/dev.senders/sender-core@", "pkg:maven/io.projectreactor/reactor-core@"],
    "rxjava-adapter": ["pkg:maven/dev.senders/sender-core@", "pkg:maven/io.reactivex.rxjava3/rxjava@"],
    "senders-spring-boot-starter": ["pkg:maven/dev.senders/sender-core@"],
    "senders-test": ["pkg:maven/dev.senders/sender-core@"],
}
REQUIRED = ["name", "description", "url", "licenses/license/name", "licenses/license/url",
            "developers/developer/name", "scm/connection", "scm/developerConnection", "scm/url"]

problems = []


def problem(msg):
    problems.append(msg)


def text(project, path):
    node = project.find("m:" + path.replace("/", "/m:"), NS)
    return (node.text or "").strip() if node is not None else ""


def verify_signature(f):
    asc = f.with_name(f.name + ".asc")
    if not asc.is_file():
        problem(f"{f.name} has no signature {asc.name}")
        return
    r = subprocess.run(["gpg", "--batch", "--verify", str(asc), str(f)], capture_output=True, text=True)
    if r.returncode != 0 or "Good signature" not in r.stderr:
        problem(f"{asc.name} does not verify: {r.stderr.strip()}")


def check_files(artifact, directory, packaging, version):
    target = pathlib.Path(directory) / "target"
    base = f"{artifact}-{version}"
    files = [target / f"{base}.pom", target / f"{base}-cyclonedx.json", target / f"{base}-cyclonedx.xml"]
    if packaging == "jar":
        files += [target / f"{base}.jar", target / f"{base}-sources.jar", target / f"{base}-javadoc.jar"]
    for f in files:
        if not f.is_file():
            problem(f"{artifact}: {f} was not built")
            continue
        verify_signature(f)
    if packaging == "jar":
        checks = {f"{base}.jar": ".class", f"{base}-sources.jar": ".java", f"{base}-javadoc.jar": "index.html"}
        for name, suffix in checks.items():
            f = target / name
            if f.is_file() and not any(n.endswith(suffix) for n in zipfile.ZipFile(f).namelist()):
                problem(f"{artifact}: {name} has no {suffix} entry")
    sbom = target / f"{base}-cyclonedx.json"
    if sbom.is_file():
        bom = json.loads(sbom.read_text())
        purl = bom.get("metadata", {}).get("component", {}).get("purl", "")
        if bom.get("bomFormat") != "CycloneDX" or not purl.startswith(f"pkg:maven/dev.senders/{artifact}@{version}"):
            problem(f"{artifact}: {sbom.name} is not a CycloneDX SBOM of this module (purl {purl!r})")
        purls = [c.get("purl", "") for c in bom.get("components", [])]
        for dep in PUBLISHED_DEPENDS.get(artifact, []):
            if not any(p.startswith(dep) for p in purls):
                problem(f"{artifact}: {sbom.name} does not list {dep}...")
        if artifact != "senders-test" and any("/org.junit." in p for p in purls):
            problem(f"{artifact}: {sbom.name} lists JUnit, a test-scoped dependency")
    return len(files)


def main():
    effective, version = sys.argv[1], sys.argv[2]
    projects = {text(p, "artifactId"): p for p in ET.parse(effective).getroot().findall("m:project", NS)}
    for artifact, (directory, packaging) in PUBLISHED.items():
        project = projects.get(artifact)
        if project is None:
            problem(f"{artifact}: not in the effective poms")
            continue
        for path in REQUIRED:
            if not text(project, path):
                problem(f"{artifact}: the published pom has no <{path}>")
        for path in ("url", "scm/url", "scm/connection"):
            value = text(project, path)
            if artifact != "senders-parent" and value.rstrip("/").endswith("/" + artifact):
                problem(f"{artifact}: <{path}> {value} has the module path appended")
        if (text(project, "packaging") or "jar") != packaging:
            problem(f"{artifact}: packaging is {text(project, 'packaging')!r}, not {packaging}")
        n = check_files(artifact, directory, packaging, version)
        print(f"release-check: {artifact} {version}: {n} files, each signed; the pom has name, description, "
              "url, licenses, developers, scm")

    root = projects["senders-parent"]
    central = None
    for plugin in root.findall("m:build/m:plugins/m:plugin", NS):
        if text(plugin, "artifactId") == "central-publishing-maven-plugin":
            central = plugin
    excluded = set()
    if central is None:
        problem("the release profile does not configure central-publishing-maven-plugin")
    else:
        if text(central, "configuration/publishingServerId") != "central":
            problem("central-publishing-maven-plugin: publishingServerId is not 'central'")
        if text(central, "configuration/autoPublish") != "false":
            problem("central-publishing-maven-plugin: autoPublish is not false")
        if text(central, "configuration/checksums") not in ("", "all", "ALL", "required", "REQUIRED"):
            problem("central-publishing-maven-plugin: checksums are switched off")
        excluded = {(a.text or "").strip() for a in central.findall("m:configuration/m:excludeArtifacts/m:artifact", NS)}
    for artifact, project in projects.items():
        if artifact in PUBLISHED:
            skip = text(project, "properties/maven.deploy.skip")
            if skip == "true":
                problem(f"{artifact}: published, but maven.deploy.skip is true")
            continue
        if text(project, "properties/maven.deploy.skip") != "true":
            problem(f"{artifact}: not published, but maven.deploy.skip is not true")
        if artifact not in excluded:
            problem(f"{artifact}: not published, but not in central-publishing-maven-plugin's excludeArtifacts")
    unpublished = sorted(a for a in projects if a not in PUBLISHED)
    print(f"release-check: not published (deploy skipped, excluded from the bundle): {', '.join(unpublished)}")

    for p in problems:
        print(f"release-check: FAILED: {p}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
