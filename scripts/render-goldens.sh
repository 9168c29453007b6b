#!/usr/bin/env bash
# render-goldens.sh - write the golden renders the render tests compare Windlass with: what the pinned kustomize and
# helm CLIs print themselves for the real-world fixtures, run by hand in the fixture folders with the arguments
# Windlass passes. Run it after changing the pinned versions, and commit what changed.
#
# Usage: scripts/render-goldens.sh
set -euo pipefail
cd "$(dirname "$0")/.."
TOOLS="$(scripts/render-tools.sh | tail -n1)"
KUSTOMIZE="$TOOLS/kustomize"
HELM="$TOOLS/helm"
FIXTURES=test-fixtures/real-world
OUT=render/src/test/resources/golden
mkdir -p "$OUT"

kustomize_build() { # repo folder, output name
  (cd "$FIXTURES/$1" && "$KUSTOMIZE" build "$2" --load-restrictor LoadRestrictionsRootOnly) > "$OUT/$3.yaml"
}
# Charts are rendered for Kubernetes v1.34.0, the version Windlass assumes for a cluster it has not yet seen, and
# without their test hooks (test Pods with random names are not part of what a chart installs).
helm_template() { # repo folder, release, chart path, namespace, output name, values files...
  local repo="$1" release="$2" chart="$3" namespace="$4" name="$5"; shift 5
  local values=()
  for v in "$@"; do values+=(-f "$v"); done
  (cd "$FIXTURES/$repo" && HELM_CACHE_HOME="$(mktemp -d)" HELM_CONFIG_HOME="$(mktemp -d)" HELM_DATA_HOME="$(mktemp -d)" \
    "$HELM" template "$release" "$chart" --namespace "$namespace" --include-crds --skip-tests --kube-version v1.34.0 "${values[@]}") > "$OUT/$name.yaml"
}

kustomize_build podinfo-repo kustomize podinfo-kustomize
for overlay in dev staging production; do kustomize_build podinfo-repo "deploy/overlays/$overlay" "podinfo-overlay-$overlay"; done
kustomize_build microservices-demo kustomize/tests/memorystore-with-all-components microservices-demo-components
helm_template podinfo-repo podinfo charts/podinfo podinfo podinfo-chart
helm_template podinfo-repo podinfo charts/podinfo podinfo podinfo-chart-prod charts/podinfo/values-prod.yaml
helm_template microservices-demo boutique helm-chart boutique microservices-demo-chart
ls -l "$OUT" >&2
