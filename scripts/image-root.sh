#!/usr/bin/env bash
# The files the engine image adds to its scratch base, staged for Jib (engine/pom.xml, jib:buildTar):
#   /opt/java                         a Java runtime jlinked from the JDK 25 the build uses with only the modules the jars use
#                                     (jdeps), plus the EC ciphers TLS to API servers needs; it trusts the JDK's CA
#                                     certificates (lib/security/cacerts)
#   /etc/ssl/certs/ca-certificates.crt  this host's CA bundle, for the render tools (Go reads it there)
#   /usr/local/bin/kustomize, helm    the pinned render tools (scripts/render-tools.sh), when they are built,
#   /usr/local/bin/landlock-restrict  and the sandbox every render runs in
#   /usr/local/bin/sops               the pinned sops that decrypts SOPS-encrypted manifests
#   /usr/local/bin/crane              lists an OCI repository's tags when a chart's version is a range
#   /usr/local/bin/windlass-gotemplate  renders an Argo CD ApplicationSet template with goTemplate: true (text/template, sprig)
#   /var/lib/windlass, /tmp           empty; deploy/ mounts volumes there (the root filesystem is read-only)
# Usage: scripts/image-root.sh <engine target dir>. The runtime is kept across runs until `mvn clean`, or until the JDK
# it was jlinked from is not the one the build uses.
set -euo pipefail
target="${1:?usage: image-root.sh <engine target dir>}"
root="$target/image-root"
# The JDK 25 the build compiled with (found the same way by scripts/java-home.sh), whatever Java runs Maven.
jdk="$("$(dirname "${BASH_SOURCE[0]}")/java-home.sh")"
mkdir -p "$root/etc/ssl/certs" "$root/usr/local/bin" "$root/var/lib/windlass" "$root/tmp"

# A runtime jlinked from another JDK (a tree built before the move to Java 25) is made again.
version() { sed -n 's/^JAVA_VERSION="\(.*\)"$/\1/p' "$1/release" 2>/dev/null; }
if [[ -x "$root/opt/java/bin/java" && "$(version "$root/opt/java")" != "$(version "$jdk")" ]]; then
  rm -rf "$root/opt/java"
fi
if [[ ! -x "$root/opt/java/bin/java" ]]; then
  modules="$("$jdk/bin/jdeps" --ignore-missing-deps --print-module-deps --multi-release 25 \
    --class-path "$target/lib/*" "$target/windlass.jar")"
  mkdir -p "$root/opt"
  "$jdk/bin/jlink" --add-modules "${modules},jdk.crypto.ec,java.logging" --strip-debug --no-man-pages --no-header-files \
    --compress=zip-6 --output "$root/opt/java"
  echo "[image-root] jlinked runtime with ${modules},jdk.crypto.ec,java.logging: $(du -sh "$root/opt/java" | cut -f1)"
fi

if [[ -f /etc/ssl/certs/ca-certificates.crt ]]; then
  cp /etc/ssl/certs/ca-certificates.crt "$root/etc/ssl/certs/ca-certificates.crt"
else
  echo "[image-root] no /etc/ssl/certs/ca-certificates.crt on this host: the image's render tools trust no CA" >&2
fi

tools="$(bash "$(dirname "$0")/render-tools.sh" | tail -n1 || true)"
if [[ -n "$tools" && -x "$tools/kustomize" && -x "$tools/helm" && -x "$tools/landlock-restrict" && -x "$tools/sops" && -x "$tools/crane" \
      && -x "$tools/windlass-gotemplate" ]]; then
  cp "$tools/kustomize" "$tools/helm" "$tools/landlock-restrict" "$tools/sops" "$tools/crane" "$tools/windlass-gotemplate" "$root/usr/local/bin/"
else
  echo "[image-root] render tools not built (scripts/render-tools.sh): the image has no kustomize or helm" >&2
fi
