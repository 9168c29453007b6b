package dev.windlass.applier.kube;

import dev.windlass.policy.model.ObjectRef;
import io.fabric8.kubernetes.api.model.DeletionPropagation;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.util.Map;
import java.util.Optional;

/**
 * One object on one cluster. Reads and patches go through the generic API so the live object comes back
 * exactly as the server sent it (a typed model round trip could add or drop fields and fake a difference);
 * whole objects are sent through the typed model when the client knows the kind, generically otherwise.
 */
public record Target(KubernetesClient client, String apiVersion, ObjectRef ref) {

    /** The live object, or empty when it does not exist. */
    public Optional<Map<String, Object>> get() {
        GenericKubernetesResource live = resource().get();
        return Optional.ofNullable(live).map(this::tree);
    }

    /** POSTs {@code body}; a 409 means someone created it first and is left to the caller. */
    public Map<String, Object> create(Map<String, Object> body) {
        return tree(handle(body).create());
    }

    /** Sends an RFC 7386 JSON merge patch and returns the object as the server stored it. */
    public Map<String, Object> mergePatch(Map<String, Object> patch) {
        return tree(resource().patch(PatchContext.of(PatchType.JSON_MERGE), JsonTree.toJson(patch)));
    }

    /**
     * Server-side apply as {@code fieldManager}, without forcing: a field another manager owns comes back as a
     * 409 conflict for a person to resolve, rather than being silently taken over.
     */
    public Map<String, Object> serverSideApply(Map<String, Object> body, String fieldManager) {
        return tree(handle(body).fieldManager(fieldManager).serverSideApply());
    }

    /** Deletes in the background (dependents are collected by the cluster); false when it was already gone. */
    public boolean delete() {
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

    /** Typed for kinds the client knows; generic (custom resources, found through discovery) for the rest. */
    private Resource<? extends HasMetadata> handle(Map<String, Object> body) {
        HasMetadata object = client.getKubernetesSerialization().unmarshal(JsonTree.toJson(body));
        return object instanceof GenericKubernetesResource g ? generic(g) : client.resource(object);
    }

    private Resource<GenericKubernetesResource> generic(GenericKubernetesResource item) {
        var kind = client.genericKubernetesResources(apiVersion, ref.kind());
        return ref.namespaced() ? kind.inNamespace(ref.namespace()).resource(item) : kind.resource(item);
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> tree(Object object) {
        return client.getKubernetesSerialization().convertValue(object, Map.class);
    }
}
