#!/usr/bin/env bash
# flux-controllers.sh - provide the peer engine `windlass bench --peer flux` runs beside Windlass: the GitOps
# toolkit's source-controller and kustomize-controller, built from the Go module proxy at pinned versions and cached,
# with the CustomResourceDefinitions of their objects taken from the same modules. Only the bench asks for them; the
# test command never does (the first build takes 5 to 16 minutes on 2 cores).
#
# Usage: scripts/flux-controllers.sh        # prints the directory as the last stdout line
#        DIR=$(scripts/flux-controllers.sh | tail -n1)
#
# The directory holds source-controller, kustomize-controller and crds/*.yaml.
#
# Environment (all optional):
#   WINDLASS_PEER_CACHE               cache root (default: $HOME/.cache/windlass/peer)
#   WINDLASS_SOURCE_CONTROLLER        github.com/fluxcd/source-controller tag (default: v1.9.1)
#   WINDLASS_KUSTOMIZE_CONTROLLER     github.com/fluxcd/kustomize-controller tag (default: v1.9.4)
#   GO                                go binary (default: go on PATH, else /usr/local/go/bin/go)
#
# Each controller is built as a dependency of a small module made here, so that its own go.mod's replace directives
# that point into its repository (its api module) do not apply, and the api module comes from the proxy at the same
# tag; the replace directives that point to other modules are copied over, as the controllers' own builds use them.
set -euo pipefail

SOURCE_VERSION="${WINDLASS_SOURCE_CONTROLLER:-v1.9.1}"
KUSTOMIZE_VERSION="${WINDLASS_KUSTOMIZE_CONTROLLER:-v1.9.4}"
CACHE_ROOT="${WINDLASS_PEER_CACHE:-${HOME:?HOME is not set}/.cache/windlass/peer}"
DIR="$CACHE_ROOT/source-$SOURCE_VERSION-kustomize-$KUSTOMIZE_VERSION"

log() { printf '[flux-controllers] %s\n' "$*" >&2; }
die() { printf '[flux-controllers] ERROR: %s\n' "$*" >&2; exit 1; }

for v in "$SOURCE_VERSION" "$KUSTOMIZE_VERSION"; do
  [[ "$v" =~ ^v1\.[0-9]+\.[0-9]+$ ]] || die "a controller version must look like v1.9.6, got '$v'"
done

built_ok() { [ -x "$DIR/$1" ] && [ "$(cat "$DIR/$1.version" 2>/dev/null)" = "$2" ]; }
all_ok() {
  built_ok source-controller "$SOURCE_VERSION" && built_ok kustomize-controller "$KUSTOMIZE_VERSION" \
    && [ -s "$DIR/crds/source.toolkit.fluxcd.io_gitrepositories.yaml" ] && [ -s "$DIR/crds/kustomize.toolkit.fluxcd.io_kustomizations.yaml" ]
}

if all_ok; then
  log "cached: $DIR"
  printf '%s\n' "$DIR"
  exit 0
fi

mkdir -p "$CACHE_ROOT" || die "cannot create cache root $CACHE_ROOT"
exec 9>"$CACHE_ROOT/.lock"
if ! flock -n 9; then
  log "another flux-controllers.sh run holds $CACHE_ROOT/.lock; waiting for it"
  flock 9
fi
mkdir -p "$DIR/crds"

if [ -n "${GO:-}" ]; then :
elif command -v go >/dev/null 2>&1; then GO="$(command -v go)"
elif [ -x /usr/local/go/bin/go ]; then GO=/usr/local/go/bin/go
else die "no Go toolchain found (looked for \$GO, 'go' on PATH and /usr/local/go/bin/go)"
fi
WORK="$(mktemp -d "${TMPDIR:-/tmp}/windlass-flux-controllers.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
START=$SECONDS

gocmd() {
  env GOTOOLCHAIN=local GOFLAGS=-mod=mod GOSUMDB=off CGO_ENABLED=0 GOMAXPROCS="${GOMAXPROCS:-2}" GOWORK=off \
      nice -n 19 "$GO" "$@"
}

# build NAME VERSION: github.com/fluxcd/NAME at VERSION, into $DIR/NAME, and its CRDs into $DIR/crds.
build() {
  local name="$1" version="$2" module="github.com/fluxcd/$1" wrap="$WORK/$1"
  mkdir -p "$wrap"
  log "downloading $module@$version from the Go module proxy"
  local json src
  json="$(cd "$WORK" && gocmd mod download -json "$module@$version" 2>&1)" \
    || die "go mod download of $module@$version failed: $(printf '%s' "$json" | sed -n 's/^[[:space:]]*"Error": "\(.*\)",$/\1/p')"
  src="$(printf '%s' "$json" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')"
  [ -n "$src" ] && [ -f "$src/go.mod" ] || die "go mod download of $module@$version gave no module directory"
  {
    printf 'module windlass.dev/peer/%s\n\n' "$name"
    sed -n 's/^go \([0-9.]*\)$/go \1/p' "$src/go.mod" | head -n1
    printf '\nrequire %s %s\nrequire %s/api %s\n' "$module" "$version" "$module" "$version"
    # replace lines that name another module (not ./ paths), single-line or inside a replace ( ... ) block.
    awk '/^replace \(/{block=1; next} block && /^\)/{block=0; next}
         block && $0 !~ /=> *\./ && NF {print "replace " $0; next}
         /^replace / && $0 !~ /=> *\./ {print}' "$src/go.mod"
  } > "$wrap/go.mod"
  log "building $name $version (this takes minutes the first time)"
  (cd "$wrap" && gocmd build -trimpath -ldflags "-s -w" -o "$DIR/$name" "$module") \
    || die "go build of $module@$version failed; see above"
  cp -f "$src"/config/crd/bases/*.yaml "$DIR/crds/"
  chmod u+w "$DIR/crds/"*.yaml
  printf '%s\n' "$version" > "$DIR/$name.version"
}

built_ok source-controller "$SOURCE_VERSION" || build source-controller "$SOURCE_VERSION"
built_ok kustomize-controller "$KUSTOMIZE_VERSION" || build kustomize-controller "$KUSTOMIZE_VERSION"
all_ok || die "built, but $DIR lacks a controller or its CRDs"

log "ready after $((SECONDS - START))s: source-controller $SOURCE_VERSION, kustomize-controller $KUSTOMIZE_VERSION in $DIR"
printf '%s\n' "$DIR"
