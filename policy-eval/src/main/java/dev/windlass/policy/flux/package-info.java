/**
 * What Windlass does itself of Flux's build of a Kustomization, after kustomize has built it: postBuild's variable
 * substitution ({@link dev.windlass.policy.flux.PostBuild}), and the Flux objects a build may print, which Windlass does
 * not apply ({@link dev.windlass.policy.flux.FluxObjects}). Pure: text in, text or problems out.
 */
package dev.windlass.policy.flux;
