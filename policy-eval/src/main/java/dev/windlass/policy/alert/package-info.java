/**
 * Alerts: what the repo asks to be told ({@link dev.windlass.policy.alert.Provider}, {@link dev.windlass.policy.alert.Alert}),
 * the events a pass's recorded changes amount to ({@link dev.windlass.policy.alert.AlertEvents}), and which provider gets
 * which event ({@link dev.windlass.policy.alert.Routing}). Pure: deliveries are the engine's.
 */
package dev.windlass.policy.alert;
