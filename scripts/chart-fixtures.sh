#!/usr/bin/env bash
# chart-fixtures.sh - package, pinned and cached, the Helm charts that the Flux example repo
# (test-fixtures/real-world/flux2-kustomize-helm-example) installs, under the names and versions their publishers use,
# so the tests can serve them from a chart repository and an OCI registry of their own:
#   podinfo 6.14.1        from the fixture test-fixtures/real-world/podinfo-repo/charts/podinfo (published by its
#                         author at https://stefanprodan.github.io/podinfo)
#   cert-manager v1.21.2  from the Go module github.com/cert-manager/cert-manager@v1.21.2, deploy/charts/cert-manager
#                         (published as oci://quay.io/jetstack/charts/cert-manager:v1.21.2)
#   gateway-helm v1.9.1 and 1.9.1
#                         from the Go module github.com/envoyproxy/gateway@v1.9.1, charts/gateway-helm
#                         (published as oci://docker.io/envoyproxy/gateway-helm, both tags)
# Each is packaged the way its release does it: cert-manager's make/manifests.mk runs
#   helm package --app-version=$VERSION --version=$VERSION
# (its Chart.yaml says v0.0.0 until then; the signing key annotation and the README are left out: nothing here signs or
# reads them); Envoy Gateway's release workflow fills values.tmpl.yaml's ${GatewayImage} and ${GatewayImagePullPolicy}
# (envsubst, with IMAGE=docker.io/envoyproxy/gateway, TAG=v1.9.1, IMAGE_PULL_POLICY=IfNotPresent) into values.yaml and
# runs helm package --app-version $TAG --version $CHART_VERSION twice, with CHART_VERSION v1.9.1 and 1.9.1.
#
# Usage: scripts/chart-fixtures.sh          # prints the charts directory (the .tgz files) as the last stdout line
#
# Environment (all optional):
#   WINDLASS_CHARTS_CACHE   cache root (default: $HOME/.cache/windlass/charts)
#   GO                      go binary (default: go on PATH, else /usr/local/go/bin/go)
# The first run downloads two module zips (~12 MB) through the Go module proxy into Go's module cache and packages
# the charts with the pinned helm of scripts/render-tools.sh (a few seconds); later runs only check the files.
set -euo pipefail

CERT_MANAGER_VERSION=v1.21.2
ENVOY_GATEWAY_VERSION=v1.9.1
PODINFO_VERSION=6.14.1
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/.." && pwd)"
CACHE_ROOT="${WINDLASS_CHARTS_CACHE:-${HOME:?HOME is not set}/.cache/windlass/charts}"
DIR="$CACHE_ROOT/podinfo-$PODINFO_VERSION-cert-manager-$CERT_MANAGER_VERSION-gateway-helm-$ENVOY_GATEWAY_VERSION"
WANTED=("podinfo-$PODINFO_VERSION.tgz" "cert-manager-$CERT_MANAGER_VERSION.tgz" "gateway-helm-$ENVOY_GATEWAY_VERSION.tgz"
        "gateway-helm-${ENVOY_GATEWAY_VERSION#v}.tgz")

log() { printf '[chart-fixtures] %s\n' "$*" >&2; }
die() { printf '[chart-fixtures] ERROR: %s\n' "$*" >&2; exit 1; }

all_there() { for f in "${WANTED[@]}"; do [ -s "$DIR/$f" ] || return 1; done; }

if all_there; then
  log "cached: $DIR"
  printf '%s\n' "$DIR"
  exit 0
fi

mkdir -p "$CACHE_ROOT" || die "cannot create cache root $CACHE_ROOT"
exec 9>"$CACHE_ROOT/.lock"
flock 9
if all_there; then printf '%s\n' "$DIR"; exit 0; fi

if [ -n "${GO:-}" ]; then :
elif command -v go >/dev/null 2>&1; then GO="$(command -v go)"
elif [ -x /usr/local/go/bin/go ]; then GO=/usr/local/go/bin/go
else die "no Go toolchain found (looked for \$GO, 'go' on PATH and /usr/local/go/bin/go)"
fi
HELM="$("$HERE/render-tools.sh" | tail -n1)/helm"
[ -x "$HELM" ] || die "no helm at $HELM; see scripts/render-tools.sh"

WORK="$(mktemp -d "${TMPDIR:-/tmp}/windlass-chart-fixtures.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
OUT="$WORK/out"
mkdir -p "$OUT"
export HELM_CACHE_HOME="$WORK/helm/cache" HELM_CONFIG_HOME="$WORK/helm/config" HELM_DATA_HOME="$WORK/helm/data"

# module_dir MODULE@VERSION: the module's files, unpacked by go into its module cache (read-only), through the proxy.
module_dir() {
  local dir
  dir="$(cd "$WORK" && env GOTOOLCHAIN=local GOFLAGS=-mod=mod GOWORK=off "$GO" mod download -json "$1" \
        | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')"
  [ -n "$dir" ] && [ -d "$dir" ] || die "go mod download $1 gave no directory"
  printf '%s\n' "$dir"
}

log "podinfo $PODINFO_VERSION from the fixture"
grep -qx "version: $PODINFO_VERSION" "$ROOT/test-fixtures/real-world/podinfo-repo/charts/podinfo/Chart.yaml" \
  || die "the fixture's podinfo chart is not version $PODINFO_VERSION"
"$HELM" package "$ROOT/test-fixtures/real-world/podinfo-repo/charts/podinfo" --destination "$OUT" >&2

log "cert-manager $CERT_MANAGER_VERSION from github.com/cert-manager/cert-manager@$CERT_MANAGER_VERSION"
CM="$(module_dir "github.com/cert-manager/cert-manager@$CERT_MANAGER_VERSION")/deploy/charts/cert-manager"
[ -f "$CM/Chart.yaml" ] || die "no chart at $CM"
cp -r "$CM" "$WORK/cert-manager"
chmod -R u+w "$WORK/cert-manager"
rm -f "$WORK/cert-manager/README.template.md" "$WORK/cert-manager/signkey_annotation.txt" "$WORK/cert-manager/values.linter.exceptions"
"$HELM" package "$WORK/cert-manager" --version "$CERT_MANAGER_VERSION" --app-version "$CERT_MANAGER_VERSION" --destination "$OUT" >&2

log "gateway-helm $ENVOY_GATEWAY_VERSION from github.com/envoyproxy/gateway@$ENVOY_GATEWAY_VERSION"
EG="$(module_dir "github.com/envoyproxy/gateway@$ENVOY_GATEWAY_VERSION")/charts/gateway-helm"
[ -f "$EG/values.tmpl.yaml" ] || die "no chart with values.tmpl.yaml at $EG"
cp -r "$EG" "$WORK/gateway-helm"
chmod -R u+w "$WORK/gateway-helm"
sed -e "s|\${GatewayImage}|docker.io/envoyproxy/gateway:$ENVOY_GATEWAY_VERSION|g" -e 's|\${GatewayImagePullPolicy}|IfNotPresent|g' \
  "$EG/values.tmpl.yaml" > "$WORK/gateway-helm/values.yaml"
rm -f "$WORK/gateway-helm/values.tmpl.yaml"
if grep -n '\${' "$WORK/gateway-helm/values.yaml" >&2; then die "values.tmpl.yaml has placeholders this script does not fill"; fi
for v in "$ENVOY_GATEWAY_VERSION" "${ENVOY_GATEWAY_VERSION#v}"; do
  "$HELM" package "$WORK/gateway-helm" --version "$v" --app-version "$ENVOY_GATEWAY_VERSION" --destination "$OUT" >&2
done

for f in "${WANTED[@]}"; do [ -s "$OUT/$f" ] || die "helm package made no $f"; done
mkdir -p "$DIR"
cp "$OUT"/*.tgz "$DIR/"
log "ready: $DIR"
printf '%s\n' "$DIR"
