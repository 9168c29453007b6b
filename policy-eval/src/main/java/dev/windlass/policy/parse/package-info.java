/**
 * Reading the config repo: YAML with line and column kept, strict validation of Windlass kinds, and
 * plain manifests. Every problem becomes a {@link dev.windlass.policy.model.Diagnostic}, never an exception.
 */
package dev.windlass.policy.parse;
