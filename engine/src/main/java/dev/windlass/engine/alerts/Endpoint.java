package dev.windlass.engine.alerts;

import dev.windlass.policy.alert.Provider;
import java.net.URI;

/**
 * A Provider the engine may send to: its address and credentials, read from its Secret. Never printed with them.
 *
 * @param token   the GitHub or Gitea token, or null
 * @param hmacKey the key a webhook's body is signed with, or null (then it is not signed)
 */
public record Endpoint(Provider provider, URI address, String token, String hmacKey) {
    @Override public String toString() {
        return "Endpoint[" + provider.name() + " " + provider.type() + " " + (provider.type().addressIsSecret() ? "(address from its Secret)" : address)
                + (token == null ? "" : ", token (set)") + (hmacKey == null ? "" : ", hmacKey (set)") + "]";
    }
}
