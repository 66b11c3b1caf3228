#!/usr/bin/env bash
# The starter as a named module (dev.senders.spring.boot) on the module path, with Spring Boot's
# automatic modules: packages the starter and the senders modules, puts their jars and the
# starter's compile dependencies (Spring Boot, Spring Framework, Reactor, RxJava, Micrometer; no
# logging backend) on the module path, and runs src/it/module-path/smoke/Smoke.java from the class
# path. It prints "SMOKE OK ..." and exits 0 when the auto-configured scope spawned, joined on close,
# and its classes came from the named module.
#   senders-spring-boot-starter/module-path-smoke.sh [extra mvn args, e.g. -Pspring-boot-4.0]
set -euo pipefail
cd "$(dirname "$0")/.."
java_tool="${JAVA_HOME:+$JAVA_HOME/bin/}java"
javac_tool="${JAVA_HOME:+$JAVA_HOME/bin/}javac"
work=senders-spring-boot-starter/target/module-path-smoke
rm -rf "$work" && mkdir -p "$work"

mvn -B -q package -DskipTests -Dmaven.javadoc.skip=true -Dmaven.source.skip=true \
    -pl senders-spring-boot-starter -am "$@"
mvn -B -q dependency:build-classpath -pl senders-spring-boot-starter -DincludeScope=compile \
    -Dmdep.outputFile="$PWD/$work/deps.txt" "$@" > /dev/null
version=$(ls senders-spring-boot-starter/target/senders-spring-boot-starter-*.jar | grep -v -e sources -e javadoc \
    | sed 's|.*/senders-spring-boot-starter-||; s|\.jar$||')
# The senders jars of this build, not whatever the local repository holds.
mp=$(tr ':' '\n' < "$work/deps.txt" | grep -v '/dev/senders/' | paste -sd:)
for m in senders-spring-boot-starter sender-core reactor-adapter rxjava-adapter; do
    mp="$mp:$m/target/$m-$version.jar"
done

"$javac_tool" -d "$work/classes" -p "$mp" --add-modules ALL-MODULE-PATH \
    senders-spring-boot-starter/src/it/module-path/smoke/Smoke.java
"$java_tool" -p "$mp" --add-modules ALL-MODULE-PATH -cp "$work/classes" smoke.Smoke 2>&1 | grep '^SMOKE'
exit "${PIPESTATUS[0]}"
