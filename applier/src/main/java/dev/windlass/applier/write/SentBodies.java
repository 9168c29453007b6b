package dev.windlass.applier.write;

import dev.windlass.applier.kube.SentBody;
import dev.windlass.policy.model.Manifest;
import dev.windlass.policy.plan.Action;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * What is sent for a manifest, made once and reused on every cluster the manifest goes to: a fleet applies the same
 * Git object to many clusters, and preparing it (copying, marking, checking it against the client's model, writing
 * its JSON) cost more than sending it. At most {@value #LIMIT} bodies are kept, the least recently used
 * going first; a body that fails its check is not kept.
 *
 * <p>A manifest is known by its body's identity (a parsed body is never changed, and the same parsed manifest is
 * placed on every cluster), so a body sent instead of Git's (ignored differences keep live values) is never mistaken
 * for another, whatever its hash says.
 */
final class SentBodies {

    static final int LIMIT = 8192;

    /** The body as sent, and what its annotations weigh against the server's limit. */
    record Sent(SentBody body, int annotationBytes) {}

    private final Map<Key, Sent> kept = new LinkedHashMap<>(256, 0.75f, true) {
        @Override protected boolean removeEldestEntry(Map.Entry<Key, Sent> eldest) {
            return size() > LIMIT;
        }
    };

    Sent of(KubernetesClient client, Action action) {
        Key key = new Key(action.desired(), action.app(), action.strategy() == dev.windlass.policy.model.Application.ApplyStrategy.ClientSide);
        Sent sent;
        synchronized (kept) {
            sent = kept.get(key);
        }
        if (sent != null) return sent;
        PreparedObject prepared = PreparedObject.of(action);
        sent = new Sent(SentBody.of(client, prepared.body()), prepared.annotationBytes());
        synchronized (kept) {
            kept.put(key, sent);
        }
        return sent;
    }

    /** The manifest by its body's identity, and what else goes into the body sent. */
    private static final class Key {
        private final Manifest manifest;
        private final String app;
        private final boolean lastApplied;
        private final int hash;

        Key(Manifest manifest, String app, boolean lastApplied) {
            this.manifest = manifest;
            this.app = app;
            this.lastApplied = lastApplied;
            this.hash = Objects.hash(System.identityHashCode(manifest.body()), manifest.ref(), manifest.hash(), app, lastApplied);
        }

        @Override public boolean equals(Object o) {
            return o instanceof Key k && k.manifest.body() == manifest.body() && k.manifest.ref().equals(manifest.ref())
                    && k.manifest.apiVersion().equals(manifest.apiVersion()) && k.manifest.hash().equals(manifest.hash())
                    && k.app.equals(app) && k.lastApplied == lastApplied;
        }

        @Override public int hashCode() { return hash; }
    }
}
