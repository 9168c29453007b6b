/** The daemon's HTTP surface: {@code /healthz} and the push {@code /webhook} (HMAC-verified when a secret is set). */
package dev.windlass.engine.http;
