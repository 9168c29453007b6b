package dev.windlass.policy.alert;

import dev.windlass.policy.model.SourceLocation;

/**
 * A place events are delivered to ({@code kind: Provider}).
 *
 * @param address    where to deliver: a webhook URL, or the API base of GitHub or Gitea; null when the Secret holds it
 *                   (always so for Slack and Teams, whose URL is the credential)
 * @param secretRef  the name of the Secret (or of the folder under the engine's {@code --alerts-secrets-dir}) holding
 *                   {@code address}, {@code token} and {@code hmacKey}; null when none
 * @param repository {@code owner/name} for commit statuses (github, gitea); null otherwise
 * @param addressAt  where the address is written (or the Provider itself when it is not): where a refused address is said
 */
public record Provider(String name, ProviderType type, String address, String secretRef, String repository,
                       SourceLocation location, SourceLocation addressAt) {}
