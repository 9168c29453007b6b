/**
 * Delivering alerts: the Providers of a commit checked against what the engine allows (credentials from its secrets
 * folder, no private addresses unless allowed), the deliveries recorded on the status branch ({@link dev.windlass.engine.alerts.Outbox}),
 * and one worker per provider sending them off the pass ({@link dev.windlass.engine.alerts.AlertDelivery}).
 */
package dev.windlass.engine.alerts;
