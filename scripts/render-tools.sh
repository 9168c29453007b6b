#!/usr/bin/env bash
# render-tools.sh - provide the real kustomize and helm binaries Windlass renders applications with, built from
# the Go module proxy at pinned versions and cached; beside them, for the tests only, a small OCI registry that
# charts are pushed to and pulled from on loopback (go-containerregistry's cmd/registry, in memory); crane, of the same
# module, which lists an OCI repository's tags when a chart's version is a range (render/.../OciTags); and the launcher
# every render runs through, go-landlock's cmd/landlock-restrict: it restricts the tool, with the kernel's Landlock
# LSM, to the files of that one render (render/.../RenderSandbox); and sops, which decrypts SOPS-encrypted files
# of an application in memory just before apply (render/.../SopsDecryptor), with, for the tests only, age-keygen
# to make the age keys they encrypt with; and windlass-gotemplate, the project's own small Go program (its source in
# render/src/main/go/windlass-gotemplate, its modules pinned by its go.mod and go.sum) that renders an ApplicationSet
# template with goTemplate: true as Argo CD does, with text/template and sprig (render/.../GoTemplateRenderer).
#
# Usage: scripts/render-tools.sh            # prints the tools directory as the last stdout line
#        DIR=$(scripts/render-tools.sh | tail -n1)
#
# Environment (all optional):
#   WINDLASS_TOOLS_CACHE      cache root              (default: $HOME/.cache/windlass/tools)
#   WINDLASS_KUSTOMIZE_VERSION sigs.k8s.io/kustomize/kustomize/v5 tag (default: v5.8.2, the newest that builds with Go 1.26)
#   WINDLASS_HELM_VERSION     helm.sh/helm/v3 tag     (default: v3.22.0)
#   WINDLASS_SOPS_VERSION     github.com/getsops/sops/v3 tag (default: v3.13.3)
#   GO                        go binary (default: go on PATH, else /usr/local/go/bin/go)
#
# All diagnostics go to stderr; stdout carries only the tools directory (last line). The first run downloads
# ~0.5 GiB of Go modules and compiles for a few minutes on 2 cores (niced); later runs only check the binaries.
set -euo pipefail

KUSTOMIZE_VERSION="${WINDLASS_KUSTOMIZE_VERSION:-v5.8.2}"
HELM_VERSION="${WINDLASS_HELM_VERSION:-v3.22.0}"
REGISTRY_MODULE="github.com/google/go-containerregistry/cmd/registry@v0.22.1"
CRANE_MODULE="github.com/google/go-containerregistry/cmd/crane@v0.22.1"
SANDBOX_MODULE="github.com/landlock-lsm/go-landlock/cmd/landlock-restrict@v0.11.2"
SOPS_VERSION="${WINDLASS_SOPS_VERSION:-v3.13.3}"
SOPS_MODULE="github.com/getsops/sops/v3/cmd/sops@$SOPS_VERSION"
AGE_KEYGEN_MODULE="filippo.io/age/cmd/age-keygen@v1.3.2"
GOTEMPLATE_SRC="$(cd "$(dirname "${BASH_SOURCE[0]}")/../render/src/main/go/windlass-gotemplate" && pwd)"
# The program is rebuilt when its source or its pinned modules change.
GOTEMPLATE_VERSION="$(cat "$GOTEMPLATE_SRC/main.go" "$GOTEMPLATE_SRC/go.mod" "$GOTEMPLATE_SRC/go.sum" | sha256sum | cut -c1-16)"
CACHE_ROOT="${WINDLASS_TOOLS_CACHE:-${HOME:?HOME is not set}/.cache/windlass/tools}"
DIR="$CACHE_ROOT/kustomize-$KUSTOMIZE_VERSION-helm-$HELM_VERSION"

log() { printf '[render-tools] %s\n' "$*" >&2; }
die() { printf '[render-tools] ERROR: %s\n' "$*" >&2; exit 1; }

[[ "$KUSTOMIZE_VERSION" =~ ^v5\.[0-9]+\.[0-9]+$ ]] || die "WINDLASS_KUSTOMIZE_VERSION must look like v5.8.3, got '$KUSTOMIZE_VERSION'"
[[ "$HELM_VERSION" =~ ^v3\.[0-9]+\.[0-9]+$ ]] || die "WINDLASS_HELM_VERSION must look like v3.22.0, got '$HELM_VERSION'"
[[ "$SOPS_VERSION" =~ ^v3\.[0-9]+\.[0-9]+$ ]] || die "WINDLASS_SOPS_VERSION must look like v3.13.3, got '$SOPS_VERSION'"

kustomize_ok() { [ -x "$DIR/kustomize" ] && [ "$("$DIR/kustomize" version 2>/dev/null | head -n1)" = "$KUSTOMIZE_VERSION" ]; }
helm_ok() { [ -x "$DIR/helm" ] && "$DIR/helm" version --template '{{.Version}}' 2>/dev/null | grep -qx "$HELM_VERSION"; }
registry_ok() { [ -x "$DIR/registry" ] && [ "$(cat "$DIR/registry.version" 2>/dev/null)" = "$REGISTRY_MODULE" ]; }
crane_ok() { [ -x "$DIR/crane" ] && [ "$(cat "$DIR/crane.version" 2>/dev/null)" = "$CRANE_MODULE" ]; }
sandbox_ok() { [ -x "$DIR/landlock-restrict" ] && [ "$(cat "$DIR/landlock-restrict.version" 2>/dev/null)" = "$SANDBOX_MODULE" ]; }
# sops --version also asks the internet for the newest release unless told not to; the version file is the check.
sops_ok() { [ -x "$DIR/sops" ] && [ "$(cat "$DIR/sops.version" 2>/dev/null)" = "$SOPS_MODULE" ]; }
gotemplate_ok() { [ -x "$DIR/windlass-gotemplate" ] && [ "$(cat "$DIR/windlass-gotemplate.version" 2>/dev/null)" = "$GOTEMPLATE_VERSION" ]; }
age_keygen_ok() { [ -x "$DIR/age-keygen" ] && [ "$(cat "$DIR/age-keygen.version" 2>/dev/null)" = "$AGE_KEYGEN_MODULE" ]; }

if kustomize_ok && helm_ok && registry_ok && crane_ok && sandbox_ok && sops_ok && age_keygen_ok && gotemplate_ok; then
  log "cached: $DIR (kustomize $KUSTOMIZE_VERSION, helm $HELM_VERSION, sops $SOPS_VERSION)"
  printf '%s\n' "$DIR"
  exit 0
fi

mkdir -p "$CACHE_ROOT" || die "cannot create cache root $CACHE_ROOT"
exec 9>"$CACHE_ROOT/.lock"
if ! flock -n 9; then
  log "another render-tools.sh run holds $CACHE_ROOT/.lock; waiting for it"
  flock 9
fi
mkdir -p "$DIR"

if [ -n "${GO:-}" ]; then :
elif command -v go >/dev/null 2>&1; then GO="$(command -v go)"
elif [ -x /usr/local/go/bin/go ]; then GO=/usr/local/go/bin/go
else die "no Go toolchain found (looked for \$GO, 'go' on PATH and /usr/local/go/bin/go)"
fi
WORK="$(mktemp -d "${TMPDIR:-/tmp}/windlass-render-tools.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
START=$SECONDS

gocmd() {
  env GOTOOLCHAIN=local GOFLAGS=-mod=mod GOSUMDB=off CGO_ENABLED=0 GOMAXPROCS="${GOMAXPROCS:-2}" GOWORK=off \
      GOBIN="$WORK/bin" nice -n 19 "$GO" "$@"
}

if ! kustomize_ok; then
  log "building kustomize $KUSTOMIZE_VERSION from the Go module proxy"
  (cd "$WORK" && gocmd install -trimpath -ldflags "-s -w" "sigs.k8s.io/kustomize/kustomize/v5@$KUSTOMIZE_VERSION") \
    || die "go install of sigs.k8s.io/kustomize/kustomize/v5@$KUSTOMIZE_VERSION failed; see above"
  mv -f "$WORK/bin/kustomize" "$DIR/kustomize"
  kustomize_ok || die "$DIR/kustomize was built but 'kustomize version' does not say $KUSTOMIZE_VERSION"
fi

if ! helm_ok; then
  log "building helm $HELM_VERSION from the Go module proxy"
  (cd "$WORK" && gocmd install -trimpath \
      -ldflags "-s -w -X helm.sh/helm/v3/internal/version.version=$HELM_VERSION -X helm.sh/helm/v3/internal/version.gitTreeState=clean" \
      "helm.sh/helm/v3/cmd/helm@$HELM_VERSION") \
    || die "go install of helm.sh/helm/v3/cmd/helm@$HELM_VERSION failed; see above"
  mv -f "$WORK/bin/helm" "$DIR/helm"
  helm_ok || die "$DIR/helm was built but 'helm version' does not say $HELM_VERSION"
fi

if ! registry_ok; then
  log "building the test OCI registry ($REGISTRY_MODULE) from the Go module proxy"
  (cd "$WORK" && gocmd install -trimpath -ldflags "-s -w" "$REGISTRY_MODULE") \
    || die "go install of $REGISTRY_MODULE failed; see above"
  mv -f "$WORK/bin/registry" "$DIR/registry"
  printf '%s\n' "$REGISTRY_MODULE" > "$DIR/registry.version"
fi

if ! crane_ok; then
  log "building crane ($CRANE_MODULE) from the Go module proxy"
  (cd "$WORK" && gocmd install -trimpath -ldflags "-s -w" "$CRANE_MODULE") \
    || die "go install of $CRANE_MODULE failed; see above"
  mv -f "$WORK/bin/crane" "$DIR/crane"
  printf '%s\n' "$CRANE_MODULE" > "$DIR/crane.version"
fi

if ! sandbox_ok; then
  log "building the render sandbox's launcher ($SANDBOX_MODULE) from the Go module proxy"
  (cd "$WORK" && gocmd install -trimpath -ldflags "-s -w" "$SANDBOX_MODULE") \
    || die "go install of $SANDBOX_MODULE failed; see above"
  mv -f "$WORK/bin/landlock-restrict" "$DIR/landlock-restrict"
  printf '%s\n' "$SANDBOX_MODULE" > "$DIR/landlock-restrict.version"
fi

if ! sops_ok; then
  log "building sops $SOPS_VERSION from the Go module proxy"
  (cd "$WORK" && gocmd install -trimpath -ldflags "-s -w" "$SOPS_MODULE") \
    || die "go install of $SOPS_MODULE failed; see above"
  mv -f "$WORK/bin/sops" "$DIR/sops"
  "$DIR/sops" --disable-version-check --version 2>/dev/null | grep -q "sops ${SOPS_VERSION#v}" \
    || die "$DIR/sops was built but 'sops --version' does not say ${SOPS_VERSION#v}"
  printf '%s\n' "$SOPS_MODULE" > "$DIR/sops.version"
fi

if ! age_keygen_ok; then
  log "building age-keygen ($AGE_KEYGEN_MODULE, for the tests' keys) from the Go module proxy"
  (cd "$WORK" && gocmd install -trimpath -ldflags "-s -w" "$AGE_KEYGEN_MODULE") \
    || die "go install of $AGE_KEYGEN_MODULE failed; see above"
  mv -f "$WORK/bin/age-keygen" "$DIR/age-keygen"
  printf '%s\n' "$AGE_KEYGEN_MODULE" > "$DIR/age-keygen.version"
fi

if ! gotemplate_ok; then
  log "building windlass-gotemplate ($GOTEMPLATE_SRC, sprig and the rest pinned by its go.sum) from the Go module proxy"
  mkdir -p "$WORK/bin"
  (cd "$GOTEMPLATE_SRC" && gocmd build -trimpath -ldflags "-s -w" -o "$WORK/bin/windlass-gotemplate" .) \
    || die "go build of $GOTEMPLATE_SRC failed; see above"
  mv -f "$WORK/bin/windlass-gotemplate" "$DIR/windlass-gotemplate"
  printf '%s\n' "$GOTEMPLATE_VERSION" > "$DIR/windlass-gotemplate.version"
fi

log "ready after $((SECONDS - START))s: kustomize $KUSTOMIZE_VERSION, helm $HELM_VERSION, sops $SOPS_VERSION in $DIR"
printf '%s\n' "$DIR"
