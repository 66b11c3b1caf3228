#!/usr/bin/env bash
# Builds the release profile (root pom.xml, RELEASING.md) the way a release does, with a throwaway
# GPG key, and checks what would go to Maven Central:
#   1. makes an ed25519 signing key without a passphrase in a temporary GNUPGHOME (removed on exit,
#      its gpg-agent stopped);
#   2. mvn -Prelease verify of the published modules (the parent pom, senders-bom, sender-core,
#      reactor-adapter, rxjava-adapter, senders-spring-boot-starter, senders-test), tests skipped
#      (CI's main build tested this commit): jars, -sources.jar, -javadoc.jar, CycloneDX SBOMs, and
#      a .asc signature of each;
#   3. mvn -Prelease help:effective-pom of every module: the poms as Maven publishes them;
#   4. scripts/release_check.py: every file present and its signature good, the SBOMs describe
#      their module and its runtime dependencies, every published pom has the elements Central
#      requires (name, description, url, licenses, developers, scm), every other module skips
#      deploy and is excluded from the bundle, the Central plugin waits for a person to publish.
# The Central plugin makes the checksums (MD5, SHA-1, SHA-256, SHA-512) when it builds the bundle,
# at deploy, which needs the portal's credentials: not run here.
#
# Usage: scripts/release-check.sh [extra mvn args]   (e.g. -Dmaven.repo.local=/path)
# Exits non-zero naming each problem.
set -euo pipefail
cd "$(dirname "$0")/.."

fail() { echo "release-check: FAILED: $*" >&2; exit 1; }
step() { echo "release-check: $*"; }
mvn_args=("$@")

work=$(mktemp -d)
export GNUPGHOME="$work/gnupg"
mkdir -m 700 "$GNUPGHOME"
cleanup() {
    gpgconf --kill gpg-agent >/dev/null 2>&1 || true
    rm -rf "$work"
}
trap cleanup EXIT

version=$(python3 -c "
import xml.etree.ElementTree as ET
ns = {'m': 'http://maven.apache.org/POM/4.0.0'}
print(ET.parse('pom.xml').getroot().find('m:version', ns).text)")

# ---- 1. a throwaway signing key
gpg --batch --passphrase '' --quick-gen-key 'senders release check <release-check@example.invalid>' ed25519 sign 1d \
    >"$work/gpg.log" 2>&1 || { cat "$work/gpg.log" >&2; fail "gpg --quick-gen-key"; }
step "throwaway key $(gpg --batch --list-secret-keys --with-colons 2>/dev/null | awk -F: '/^fpr/ { print $10; exit }')"

# ---- 2. the release profile, to verify
published=.,senders-bom,sender-core,reactor-adapter,rxjava-adapter,senders-spring-boot-starter,senders-test
mvn -B -Prelease verify -DskipTests -pl "$published" "${mvn_args[@]}" >"$work/verify.log" 2>&1 \
    || { grep -E 'ERROR|FAIL' "$work/verify.log" | head -40 >&2; fail "mvn -Prelease verify of the published modules"; }
step "mvn -Prelease verify -pl $published: built and signed"

# ---- 3. the poms as published
mvn -B -q -Prelease help:effective-pom -Doutput="$work/effective-pom.xml" "${mvn_args[@]}" >"$work/help.log" 2>&1 \
    || { tail -30 "$work/help.log" >&2; fail "mvn help:effective-pom"; }

# ---- 4. the checks
python3 scripts/release_check.py "$work/effective-pom.xml" "$version" || fail "the release bundle (above)"
step "OK"
