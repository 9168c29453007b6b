/**
 * The daemon's HTTP surface: {@code /healthz} (liveness), {@code /readyz} (readiness), {@code /metrics} and the push
 * {@code /webhook} (HMAC-verified when a secret is set).
 */
package dev.windlass.engine.http;
