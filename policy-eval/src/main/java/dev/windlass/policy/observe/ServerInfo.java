package dev.windlass.policy.observe;

import java.util.List;

/**
 * What a cluster's API server says of itself: the charts rendered for the cluster see these as their capabilities.
 *
 * @param version     {@code /version}'s gitVersion, e.g. v1.34.4; "" when unknown
 * @param apiVersions every group/version it serves ({@code v1}, {@code apps/v1}, {@code monitoring.coreos.com/v1}, ...),
 *                    sorted; empty when unknown
 */
public record ServerInfo(String version, List<String> apiVersions) {
    public static final ServerInfo UNKNOWN = new ServerInfo("", List.of());

    public ServerInfo {
        version = version == null ? "" : version;
        apiVersions = apiVersions == null ? List.of() : List.copyOf(apiVersions.stream().sorted().distinct().toList());
    }

    public boolean known() { return !version.isEmpty(); }
}
