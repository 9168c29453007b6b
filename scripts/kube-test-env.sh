#!/usr/bin/env bash
# kube-test-env.sh - provide a real control plane for Windlass integration tests:
# kube-apiserver, kube-controller-manager, kube-scheduler, etcd and kwok (fake nodes
# whose pods run), built from the Go module proxy and cached.
#
# Usage: scripts/kube-test-env.sh            # prints the binary directory as the last stdout line
#        DIR=$(scripts/kube-test-env.sh | tail -n1)
#
# Environment (all optional):
#   WINDLASS_K8S_CACHE        cache root            (default: $HOME/.cache/windlass/k8s)
#   WINDLASS_K8S_VERSION      k8s.io/kubernetes tag (default: v1.34.4)
#   WINDLASS_ETCD_VERSION     etcd version to build (default: v3.6.4, the one k8s v1.34 pins)
#   WINDLASS_KWOK_VERSION     sigs.k8s.io/kwok tag  (default: v0.8.0)
#   WINDLASS_ETCD_SOURCE      auto | apt | go       (default: auto = Debian's etcd-server if its
#                             candidate is >= 3.5, otherwise build go.etcd.io/etcd/server/v3)
#   WINDLASS_K8S_WITH_KUBECTL 0 (default) skips kubectl, which the tests do not use; 1 also builds it
#                             (~2 more minutes)
#   WINDLASS_K8S_LAYOUT       0 (default); 1 also symlinks the binaries where io.fabric8:kube-api-test
#                             looks: $KUBE_API_TEST_DIR/k8s/<x.y.z>-linux-<arch>/ (needs kubectl). The
#                             tests use their own launcher (kube-test module), not that library.
#   KUBE_API_TEST_DIR         kube-api-test's own root dir variable (default: $HOME/.kubeapitest)
#   GO                        go binary (default: go on PATH, else /usr/local/go/bin/go)
#
# All diagnostics go to stderr; stdout carries only the cache directory (last line).
# The first run downloads ~1 GiB of Go modules and compiles for about 7-10 minutes on
# 2 cores (niced, GOMAXPROCS=2); later runs only check the cached binaries (<1 s).
set -euo pipefail

K8S_VERSION="${WINDLASS_K8S_VERSION:-v1.34.4}"
ETCD_VERSION="${WINDLASS_ETCD_VERSION:-v3.6.4}"
ETCD_SOURCE="${WINDLASS_ETCD_SOURCE:-auto}"
KWOK_VERSION="${WINDLASS_KWOK_VERSION:-v0.8.0}"
WITH_KUBECTL="${WINDLASS_K8S_WITH_KUBECTL:-0}"
LAYOUT="${WINDLASS_K8S_LAYOUT:-0}"
CACHE_ROOT="${WINDLASS_K8S_CACHE:-${HOME:?HOME is not set}/.cache/windlass/k8s}"
KAT_ROOT="${KUBE_API_TEST_DIR:-$HOME/.kubeapitest}"
DIR="$CACHE_ROOT/$K8S_VERSION"

log() { printf '[kube-test-env] %s\n' "$*" >&2; }
die() { printf '[kube-test-env] ERROR: %s\n' "$*" >&2; exit 1; }

[[ "$K8S_VERSION" =~ ^v1\.([0-9]+)\.([0-9]+)$ ]] \
  || die "WINDLASS_K8S_VERSION must look like v1.34.4, got '$K8S_VERSION'"
K8S_MINOR="${BASH_REMATCH[1]}"
STAGING_VERSION="v0.${BASH_REMATCH[1]}.${BASH_REMATCH[2]}"
[[ "$KWOK_VERSION" =~ ^v[0-9]+\.[0-9]+\.[0-9]+$ ]] \
  || die "WINDLASS_KWOK_VERSION must look like v0.8.0, got '$KWOK_VERSION'"
[[ "$ETCD_VERSION" =~ ^v3\.[0-9]+\.[0-9]+$ ]] \
  || die "WINDLASS_ETCD_VERSION must look like v3.6.4, got '$ETCD_VERSION'"
case "$ETCD_SOURCE" in auto|apt|go) ;; *) die "WINDLASS_ETCD_SOURCE must be auto, apt or go, got '$ETCD_SOURCE'";; esac

# ---------------------------------------------------------------- helpers --

# version_ge A B: true if dotted version A >= B (leading "v" ignored).
version_ge() {
  [ "$(printf '%s\n%s\n' "${1#v}" "${2#v}" | sort -V | head -n1)" = "${2#v}" ]
}

# Version reported by a cached binary, or empty if it does not run.
apiserver_version() { "$1" --version 2>/dev/null | sed -n 's/^Kubernetes \(v[0-9.]*\).*/\1/p' | head -n1; }
etcd_version()      { "$1" --version 2>/dev/null | sed -n 's/^etcd Version: \([0-9.]*\).*/v\1/p' | head -n1; }

apiserver_ok() { [ -x "$DIR/kube-apiserver" ] && [ "$(apiserver_version "$DIR/kube-apiserver")" = "$K8S_VERSION" ]; }
# kube-controller-manager and kube-scheduler print the same "Kubernetes vX.Y.Z" line.
component_ok() { [ -x "$DIR/$1" ] && [ "$(apiserver_version "$DIR/$1")" = "$K8S_VERSION" ]; }
# kwok's binary, and the stages it refuses to start without, copied from its module.
kwok_ok() {
  [ -x "$DIR/kwok" ] && [ -s "$DIR/kwok-stages.yaml" ] && [ "$(cat "$DIR/kwok.version" 2>/dev/null)" = "$KWOK_VERSION" ] \
    && "$DIR/kwok" --help >/dev/null 2>&1
}
etcd_ok() {
  [ -x "$DIR/etcd" ] || return 1
  local v; v="$(etcd_version "$DIR/etcd")"
  [ -n "$v" ] || return 1
  if [ "$ETCD_SOURCE" = go ]; then [ "$v" = "$ETCD_VERSION" ]; else version_ge "$v" v3.5.0; fi
}
kubectl_ok() {
  [ -x "$DIR/kubectl" ] && "$DIR/kubectl" version --client 2>/dev/null | grep -qx "Client Version: $K8S_VERSION"
}

find_go() {
  [ -z "${GO_CHECKED:-}" ] || return 0
  if [ -n "${GO:-}" ]; then :
  elif command -v go >/dev/null 2>&1; then GO="$(command -v go)"
  elif [ -x /usr/local/go/bin/go ]; then GO=/usr/local/go/bin/go
  else die "no Go toolchain found (looked for \$GO, 'go' on PATH and /usr/local/go/bin/go); install Go >= 1.24"
  fi
  local gv; gv="$(GOTOOLCHAIN=local "$GO" env GOVERSION 2>/dev/null)" || die "'$GO env GOVERSION' failed"
  version_ge "${gv#go}" 1.24 || die "Go $gv is too old; k8s.io/kubernetes $K8S_VERSION needs go >= 1.24"
  log "using $GO ($gv)"
  GO_CHECKED=1
}

# Run the go command low-priority with the build settings this script relies on.
gocmd() {
  env GOTOOLCHAIN=local GOFLAGS=-mod=mod GOSUMDB=off CGO_ENABLED=0 \
      GOMAXPROCS="${GOMAXPROCS:-2}" GOWORK=off \
      nice -n 19 "$GO" "$@"
}

# Print the path of a module's go.mod in the module cache (downloads .info/.mod only).
module_gomod() {
  local out
  out="$(cd "$WORK" && gocmd list -m -json "$1" 2>&1)" \
    || die "cannot resolve $1 from the Go module proxy (GOPROXY=$(GOTOOLCHAIN=local "$GO" env GOPROXY)):"$'\n'"$out"
  printf '%s\n' "$out" | sed -n 's/^[[:space:]]*"GoMod": "\(.*\)",\{0,1\}$/\1/p' | head -n1
}

module_time() {
  (cd "$WORK" && gocmd list -m -f '{{if .Time}}{{.Time.UTC.Format "2006-01-02T15:04:05Z"}}{{end}}' "$1" 2>/dev/null) || true
}

# ------------------------------------------------------------- fast path --

mkdir -p "$CACHE_ROOT" || die "cannot create cache root $CACHE_ROOT"

need_build() {
  apiserver_ok || return 0
  component_ok kube-controller-manager || return 0
  component_ok kube-scheduler || return 0
  etcd_ok || return 0
  kwok_ok || return 0
  if [ "$WITH_KUBECTL" = 1 ]; then kubectl_ok || return 0; fi
  return 1
}

layout_kube_api_test() {
  [ "$LAYOUT" = 1 ] || return 0
  # io.fabric8:kube-api-test (7.6.1) looks for <KUBE_API_TEST_DIR>/k8s/<x.y.z>-<os>-<arch>/ holding
  # kube-apiserver, etcd AND kubectl (its readiness check runs 'kubectl get ns default').
  if [ ! -x "$DIR/kubectl" ]; then
    log "kube-api-test layout skipped: it needs kubectl too (set WINDLASS_K8S_WITH_KUBECTL=1)"
    return 0
  fi
  local arch
  case "$(uname -m)" in
    x86_64|amd64) arch=amd64 ;; aarch64|arm64) arch=arm64 ;;   # kube-api-test's own mapping
    *) log "kube-api-test layout skipped: unsupported architecture $(uname -m)"; return 0 ;;
  esac
  local kdir="$KAT_ROOT/k8s/${K8S_VERSION#v}-linux-$arch"
  if ! mkdir -p "$kdir" 2>/dev/null; then log "kube-api-test layout skipped: cannot create $kdir"; return 0; fi
  local b; for b in kube-apiserver etcd kubectl; do ln -sfn "$DIR/$b" "$kdir/$b"; done
  log "kube-api-test binaries linked in $kdir"
}

if ! need_build; then
  log "cached: $DIR (kube-apiserver, kube-controller-manager, kube-scheduler $K8S_VERSION, etcd $(etcd_version "$DIR/etcd"), kwok $KWOK_VERSION)"
  layout_kube_api_test
  printf '%s\n' "$DIR"
  exit 0
fi

# Serialise concurrent runs (e.g. parallel test modules) on the same cache root.
exec 9>"$CACHE_ROOT/.lock"
if ! flock -n 9; then
  log "another kube-test-env.sh run holds $CACHE_ROOT/.lock; waiting for it"
  flock 9
fi

mkdir -p "$DIR" || die "cannot create $DIR"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/windlass-kube-build.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
START=$SECONDS

# ---------------------------------------------------------- kube-apiserver --

# Resolve k8s.io/kubernetes and write the throwaway module (cheap; fails fast on a bad
# version or an unreachable proxy). Sets K8S_PKGS / K8S_NAMES (empty: nothing to build).
K8S_PKGS=(); K8S_NAMES=()
prepare_kubernetes() {
  apiserver_ok || { K8S_PKGS+=(k8s.io/kubernetes/cmd/kube-apiserver); K8S_NAMES+=(kube-apiserver); }
  local c; for c in kube-controller-manager kube-scheduler; do
    component_ok "$c" || { K8S_PKGS+=("k8s.io/kubernetes/cmd/$c"); K8S_NAMES+=("$c"); }
  done
  if [ "$WITH_KUBECTL" = 1 ] && ! kubectl_ok; then K8S_PKGS+=(k8s.io/kubernetes/cmd/kubectl); K8S_NAMES+=(kubectl); fi
  [ ${#K8S_PKGS[@]} -gt 0 ] || return 0
  find_go

  local mod="$WORK/k8s"; mkdir -p "$mod"
  local kmod; kmod="$(module_gomod "k8s.io/kubernetes@$K8S_VERSION")"
  [ -f "$kmod" ] || die "go.mod of k8s.io/kubernetes@$K8S_VERSION not found in the module cache"

  # Every staging module that k8s.io/kubernetes replaces with ./staging/src/... must be
  # replaced here with its published v0.x.y twin, or the build cannot resolve them.
  local staging
  staging="$(sed -n 's#^[[:space:]]*\(k8s\.io/[^[:space:]]*\)[[:space:]]*=>[[:space:]]*\./staging/.*#\1#p' "$kmod")"
  [ -n "$staging" ] || die "found no ./staging replace directives in $kmod; unexpected k8s.io/kubernetes go.mod layout"
  local gover; gover="$(sed -n 's/^go \([0-9.]*\)$/\1/p' "$kmod" | head -n1)"

  {
    printf 'module windlass.invalid/kube-test-env\n\ngo %s\n\n' "${gover:-1.24.0}"
    grep '^godebug ' "$kmod" || true
    printf '\nrequire k8s.io/kubernetes %s\n\nreplace (\n' "$K8S_VERSION"
    local m; for m in $staging; do printf '\t%s => %s %s\n' "$m" "$m" "$STAGING_VERSION"; done
    printf ')\n'
  } > "$mod/go.mod"
  log "throwaway module for k8s.io/kubernetes $K8S_VERSION: $(printf '%s\n' "$staging" | wc -l) staging modules replaced with $STAGING_VERSION"
}

build_kubernetes() {
  [ ${#K8S_PKGS[@]} -gt 0 ] || return 0
  log "building ${K8S_NAMES[*]} $K8S_VERSION from the Go module proxy"
  if [ "${K8S_NAMES[0]}" = kube-apiserver ]; then
    log "a cold build takes ~5 minutes on 2 cores (~0.7 GiB of modules, ~3 GiB of Go build cache); please wait"
  fi
  local date; date="$(module_time "k8s.io/kubernetes@$K8S_VERSION")"
  local ld="-s -w" p
  for p in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
    ld+=" -X $p.gitVersion=$K8S_VERSION -X $p.gitMajor=1 -X $p.gitMinor=$K8S_MINOR"
    ld+=" -X $p.gitTreeState=clean -X $p.buildDate=${date:-1970-01-01T00:00:00Z}"
  done

  local out="$WORK/k8s-bin"; mkdir -p "$out"
  local t0=$SECONDS
  if ! (cd "$WORK/k8s" && gocmd build -trimpath -ldflags "$ld" -o "$out/" "${K8S_PKGS[@]}"); then
    die "go build of ${K8S_PKGS[*]} ($K8S_VERSION) failed; see the compiler output above"
  fi
  local n; for n in "${K8S_NAMES[@]}"; do mv -f "$out/$n" "$DIR/$n"; done
  log "built ${K8S_NAMES[*]} in $((SECONDS - t0))s"
  apiserver_ok || die "$DIR/kube-apiserver was built but '--version' does not report $K8S_VERSION"
  for n in kube-controller-manager kube-scheduler; do
    component_ok "$n" || die "$DIR/$n was built but '--version' does not report $K8S_VERSION"
  done
}

# -------------------------------------------------------------------- kwok --

# kwok plays the kubelet for fake nodes: it heartbeats them and moves their pods to Running/Ready, so the
# real controllers make Deployments, StatefulSets, DaemonSets and Jobs ready. Its stages ship in its module.
provide_kwok() {
  kwok_ok && return 0
  find_go
  log "building kwok $KWOK_VERSION (sigs.k8s.io/kwok) from the Go module proxy; ~2 minutes the first time"
  local mod="$WORK/kwok"; mkdir -p "$mod"
  local kmod; kmod="$(module_gomod "sigs.k8s.io/kwok@$KWOK_VERSION")"
  local gover; gover="$(sed -n 's/^go \([0-9.]*\)$/\1/p' "$kmod" | head -n1)"
  printf 'module windlass.invalid/kwok-build\n\ngo %s\n\nrequire sigs.k8s.io/kwok %s\n' "${gover:-1.24.0}" "$KWOK_VERSION" > "$mod/go.mod"
  local t0=$SECONDS
  if ! (cd "$mod" && gocmd build -trimpath -ldflags "-s -w -X sigs.k8s.io/kwok/pkg/consts.Version=$KWOK_VERSION" \
      -o "$WORK/kwok-bin" sigs.k8s.io/kwok/cmd/kwok); then
    die "go build of sigs.k8s.io/kwok/cmd/kwok@$KWOK_VERSION failed; see the compiler output above"
  fi
  local src; src="$(dirname "$kmod")"
  [ -d "$src/kustomize/stage" ] || src="$(cd "$mod" && gocmd list -m -f '{{.Dir}}' "sigs.k8s.io/kwok")"
  local stages="$src/kustomize/stage"
  [ -d "$stages" ] || die "kwok's stages not found under $stages"
  # The standard stages: nodes initialised and kept Ready by a Lease heartbeat, pods made Running and Ready (and
  # Jobs' pods Succeeded), volumes of kwok's storage class provisioned and bound. A node whose heartbeat kwok stops
  # goes NotReady through the real node-lifecycle controller. Only Stage documents are taken (the storage class
  # and RBAC beside them are created by the launcher or not needed).
  {
    local f first=1
    for f in "$stages/node/fast/node-initialize.yaml" "$stages"/node/heartbeat-with-lease/*.yaml \
             "$stages"/pod/fast/*.yaml "$stages"/volume/fast/*.yaml; do
      [ -f "$f" ] || continue
      grep -q '^kind: Stage' "$f" || continue
      [ $first = 1 ] || printf -- '---\n'
      first=0
      sed '/^---[[:space:]]*$/d' "$f"
    done
  } > "$WORK/kwok-stages.yaml"
  grep -q '^kind: Stage' "$WORK/kwok-stages.yaml" || die "no kwok Stage found in $stages"
  mv -f "$WORK/kwok-bin" "$DIR/kwok"
  mv -f "$WORK/kwok-stages.yaml" "$DIR/kwok-stages.yaml"
  printf '%s\n' "$KWOK_VERSION" > "$DIR/kwok.version"
  log "built kwok in $((SECONDS - t0))s"
  kwok_ok || die "$DIR/kwok was built but does not run ('$DIR/kwok --help')"
}

# -------------------------------------------------------------------- etcd --

apt_etcd_candidate() {
  command -v apt-cache >/dev/null 2>&1 || return 0
  apt-cache policy etcd-server 2>/dev/null | sed -n 's/^[[:space:]]*Candidate: \([0-9][0-9.]*\).*/\1/p' | head -n1
}

etcd_from_apt() {
  local cand="$1"
  if [ ! -x /usr/bin/etcd ] || ! version_ge "$(etcd_version /usr/bin/etcd)" v3.5.0; then
    [ "$(id -u)" = 0 ] || { log "etcd-server $cand needs 'apt-get install' as root; not root"; return 1; }
    log "installing Debian etcd-server $cand"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q etcd-server >&2 || { log "apt-get install etcd-server failed"; return 1; }
  fi
  cp -f /usr/bin/etcd "$DIR/etcd.tmp" && mv -f "$DIR/etcd.tmp" "$DIR/etcd"
}

build_etcd() {
  find_go
  log "building etcd $ETCD_VERSION (go.etcd.io/etcd/server/v3) from the Go module proxy; ~1.5 minutes the first time"
  local mod="$WORK/etcd"; mkdir -p "$mod"
  printf 'module windlass.invalid/etcd-build\n\ngo 1.24.0\n\nrequire go.etcd.io/etcd/server/v3 %s\n' "$ETCD_VERSION" > "$mod/go.mod"
  local t0=$SECONDS
  if ! (cd "$mod" && gocmd build -trimpath -ldflags "-s -w" -o "$WORK/etcd-bin" go.etcd.io/etcd/server/v3); then
    die "go build of go.etcd.io/etcd/server/v3@$ETCD_VERSION failed; see the compiler output above"
  fi
  mv -f "$WORK/etcd-bin" "$DIR/etcd"
  log "built etcd in $((SECONDS - t0))s"
}

provide_etcd() {
  etcd_ok && return 0
  local cand=""
  case "$ETCD_SOURCE" in
    apt|auto)
      cand="$(apt_etcd_candidate)"
      if [ -n "$cand" ] && version_ge "$cand" 3.5.0 && etcd_from_apt "$cand"; then
        :
      elif [ "$ETCD_SOURCE" = apt ]; then
        die "WINDLASS_ETCD_SOURCE=apt but Debian's etcd-server is ${cand:-not available (run apt-get update?)}; kube-apiserver $K8S_VERSION needs etcd >= 3.5"
      else
        log "Debian etcd-server is ${cand:-not available}; kube-apiserver $K8S_VERSION needs etcd >= 3.5, so building it"
        build_etcd
      fi ;;
    go) build_etcd ;;
  esac
  etcd_ok || die "$DIR/etcd does not run or reports a version below 3.5 ('$DIR/etcd --version')"
}

# Cheap checks and etcd first, so that a bad version or an impossible etcd choice
# fails before the long kube-apiserver build.
prepare_kubernetes
provide_etcd
build_kubernetes
provide_kwok

{
  echo "K8S_VERSION=$K8S_VERSION"
  echo "ETCD_VERSION=$(etcd_version "$DIR/etcd")"
  echo "KWOK_VERSION=$KWOK_VERSION"
  echo "BUILT_AT=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
} > "$DIR/versions.env"

log "ready after $((SECONDS - START))s: kube-apiserver, kube-controller-manager, kube-scheduler $(apiserver_version "$DIR/kube-apiserver"), etcd $(etcd_version "$DIR/etcd"), kwok $KWOK_VERSION in $DIR"
layout_kube_api_test
printf '%s\n' "$DIR"
