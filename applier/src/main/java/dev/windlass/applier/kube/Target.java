package dev.windlass.applier.kube;

import io.fabric8.kubernetes.client.KubernetesClientException;

import dev.windlass.policy.model.ObjectRef;
import io.fabric8.kubernetes.api.model.DeletionPropagation;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.internal.OperationSupport;
import java.util.Map;
import java.util.Optional;

/**
 * One object on one cluster. Reads and writes send and read JSON as it is, through the client library's HTTP client
 * ({@link ObjectRequests}): the live object comes back exactly as the server sent it (a typed model round trip could
 * add or drop fields and fake a difference), and a body is sent as the JSON the library's model of its kind writes,
 * made once per manifest ({@link SentBody}) instead of once per request. Deletes go through the library's operations.
 *
 * @param dryRun writes are sent with {@code dryRun=All}: the server validates, defaults and answers, and stores nothing
 */
public record Target(KubernetesClient client, String apiVersion, ObjectRef ref, boolean dryRun) {

    public Target(KubernetesClient client, String apiVersion, ObjectRef ref) { this(client, apiVersion, ref, false); }

    /** The same object, with every write a dry run. */
    public Target asDryRun() { return new Target(client, apiVersion, ref, true); }

    /** The live object, or empty when it does not exist. */
    public Optional<Map<String, Object>> get() {
        return ObjectRequests.get(client, objectUrl());
    }

    /** POSTs {@code body}, see {@link #create(SentBody)}. */
    public void create(Map<String, Object> body) {
        create(SentBody.of(client, body));
    }

    /**
     * POSTs the body; a 409 means someone created it first and is left to the caller. What the server answers is
     * not read: no caller needs it, and a first sync creates every object (the watch delivers it anyway).
     */
    public void create(SentBody body) {
        ObjectRequests.write(client, "POST", writeUrl(collectionUrl(), Map.of()), ObjectRequests.JSON, body.json());
    }

    /**
     * POSTs {@code body} and returns the object as the server stored it: for an object with a {@code generateName}, the
     * answer is the only place its name is said.
     */
    public Map<String, Object> createAndRead(Map<String, Object> body) {
        return ObjectRequests.tree(ObjectRequests.write(client, "POST", writeUrl(collectionUrl(), Map.of()), ObjectRequests.JSON,
                SentBody.of(client, body).json()));
    }

    /** Sends an RFC 7386 JSON merge patch and returns the object as the server stored it. */
    public Map<String, Object> mergePatch(Map<String, Object> patch) {
        return ObjectRequests.tree(ObjectRequests.write(client, "PATCH", writeUrl(objectUrl(), Map.of()),
                ObjectRequests.MERGE_PATCH, JsonTree.toJson(patch)));
    }

    /** Server-side apply of {@code body}, see {@link #serverSideApply(SentBody, String, boolean)}. */
    public Map<String, Object> serverSideApply(Map<String, Object> body, String fieldManager, boolean force) {
        return serverSideApply(SentBody.of(client, body), fieldManager, force);
    }

    /**
     * Server-side apply as {@code fieldManager}. Unless {@code force}, a field another manager owns comes back as
     * a 409 conflict for a person to resolve, rather than being silently taken over.
     */
    public Map<String, Object> serverSideApply(SentBody body, String fieldManager, boolean force) {
        Map<String, String> parameters = new java.util.LinkedHashMap<>();
        parameters.put("fieldManager", fieldManager);
        if (force) parameters.put("force", "true");
        return ObjectRequests.tree(ObjectRequests.write(client, "PATCH", writeUrl(objectUrl(), parameters),
                ObjectRequests.APPLY_PATCH, body.json()));
    }

    /** Deletes in the background (dependents are collected by the cluster); false when it was already gone. */
    public boolean delete() {
        if (dryRun) return !resource().dryRun().delete().isEmpty();
        return !resource().withPropagationPolicy(DeletionPropagation.BACKGROUND).delete().isEmpty();
    }

    /**
     * The object by name. Bound to an item rather than {@code withName}, which would make the client GET the
     * object before every patch.
     */
    private Resource<GenericKubernetesResource> resource() {
        var item = new GenericKubernetesResource();
        item.setApiVersion(apiVersion);
        item.setKind(ref.kind());
        item.setMetadata(new ObjectMetaBuilder().withName(ref.name())
                .withNamespace(ref.namespaced() ? ref.namespace() : null).build());
        return generic(item);
    }

    private Resource<GenericKubernetesResource> generic(GenericKubernetesResource item) {
        var kind = kind();
        return ref.namespaced() ? kind.inNamespace(ref.namespace()).resource(item) : kind.resource(item);
    }

    /** The library's operations on the kind: its own URL for kinds it knows, discovery for the rest. */
    private io.fabric8.kubernetes.client.dsl.MixedOperation<GenericKubernetesResource,
            io.fabric8.kubernetes.api.model.GenericKubernetesResourceList, Resource<GenericKubernetesResource>> kind() {
        try {
            return client.genericKubernetesResources(apiVersion, ref.kind());
        } catch (KubernetesClientException e) {
            // Discovery answered and does not list the kind; a discovery request that failed stays what it was.
            if (Failures.classify(e) == Failures.Kind.Unresolved) throw new UnservedKind(apiVersion, ref.kind(), e);
            throw e;
        }
    }

    private String collectionUrl() {
        return ObjectRequests.collectionUrl(client, apiVersion, ref, () -> (OperationSupport) kind().inAnyNamespace());
    }

    private String objectUrl() {
        return ObjectRequests.objectUrl(client, apiVersion, ref, () -> (OperationSupport) kind().inAnyNamespace());
    }

    /** A write's URL: {@code dryRun=All} on dry runs, then the write's own parameters. */
    private String writeUrl(String url, Map<String, String> parameters) {
        if (!dryRun) return ObjectRequests.query(url, parameters);
        Map<String, String> all = new java.util.LinkedHashMap<>();
        all.put("dryRun", "All");
        all.putAll(parameters);
        return ObjectRequests.query(url, all);
    }
}
