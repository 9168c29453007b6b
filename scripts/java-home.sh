#!/usr/bin/env bash
# java-home.sh - prints the home of an installed JDK 25 or newer, which Windlass is built with and runs on.
# Looks, in order, at $WINDLASS_JAVA_HOME, $JAVA_HOME, $JAVA25_HOME, the java on the PATH, then the usual install
# places (/usr/lib/jvm, /opt/java, /usr/local, SDKMAN's and Gradle's JDKs). The Maven build finds the same JDK by
# itself (the toolchains plugin in pom.xml); this script is for what runs outside Maven: ./windlass and the image.
#
# Usage: JAVA_HOME="$(scripts/java-home.sh)"
set -euo pipefail
NEED=25

major_of() { # the major version of the JDK at $1, or nothing
  local home="$1" v
  [ -x "$home/bin/java" ] || return 0
  if [ -r "$home/release" ]; then
    v="$(sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$home/release")"
  else
    v="$("$home/bin/java" -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -n1)"
  fi
  printf '%s' "$v"
}

candidates() {
  [ -n "${WINDLASS_JAVA_HOME:-}" ] && printf '%s\n' "$WINDLASS_JAVA_HOME"
  [ -n "${JAVA_HOME:-}" ] && printf '%s\n' "$JAVA_HOME"
  [ -n "${JAVA25_HOME:-}" ] && printf '%s\n' "$JAVA25_HOME"
  if command -v java >/dev/null 2>&1; then dirname "$(dirname "$(readlink -f "$(command -v java)")")"; fi
  for d in /usr/lib/jvm/* /opt/java/* /usr/local/*jdk* "$HOME"/.sdkman/candidates/java/* "$HOME"/.gradle/jdks/*; do
    [ -d "$d" ] && printf '%s\n' "$d"
  done
  return 0
}

while IFS= read -r home; do
  major="$(major_of "$home")"
  if [ -n "$major" ] && [ "$major" -ge "$NEED" ]; then
    printf '%s\n' "$home"
    exit 0
  fi
done < <(candidates)

echo "java-home.sh: Windlass needs Java $NEED or newer and found none (looked at \$WINDLASS_JAVA_HOME, \$JAVA_HOME," \
  "\$JAVA25_HOME, the java on the PATH, /usr/lib/jvm, /opt/java, /usr/local, SDKMAN and Gradle). Install a JDK $NEED" \
  "(for example Temurin $NEED) or point WINDLASS_JAVA_HOME at one." >&2
exit 1
