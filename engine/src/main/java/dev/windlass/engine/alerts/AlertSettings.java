package dev.windlass.engine.alerts;

import java.nio.file.Path;

/**
 * What the engine allows alerts: where Provider credentials are ({@code --alerts-secrets-dir}), whether a Provider may
 * be a private address ({@code --alerts-allow-private-addresses}: tests, demos, a receiver inside the cluster), the
 * dashboard's address for links ({@code --alerts-dashboard-url}), and how workers send.
 */
public record AlertSettings(Path secretsDir, boolean allowPrivateAddresses, String dashboardUrl, DeliverySettings delivery) {
    public AlertSettings {
        delivery = delivery == null ? DeliverySettings.DEFAULT : delivery;
    }

    public AlertSecrets secrets() { return secretsDir == null ? AlertSecrets.NONE : new AlertSecrets(secretsDir); }
}
