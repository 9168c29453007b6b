package dev.windlass.applier.kube;

import io.fabric8.kubernetes.client.KubernetesClientException;

import dev.windlass.policy.model.ObjectRef;
import io.fabric8.kubernetes.api.model.DeletionPropagation;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.ServerSideApplicable;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.util.Map;
import java.util.Optional;

/**
 * One object on one cluster. Reads and patches go through the generic API so the live object comes back
 * exactly as the server sent it (a typed model round trip could add or drop fields and fake a difference);
 * whole objects are sent through the typed model when the client knows the kind, generically otherwise.
 *
 * @param dryRun writes are sent with {@code dryRun=All}: the server validates, defaults and answers, and stores nothing
 */
public record Target(KubernetesClient client, String apiVersion, ObjectRef ref, boolean dryRun) {

    public Target(KubernetesClient client, String apiVersion, ObjectRef ref) { this(client, apiVersion, ref, false); }

    /** The same object, with every write a dry run. */
    public Target asDryRun() { return new Target(client, apiVersion, ref, true); }

    /** The live object, or empty when it does not exist. */
    public Optional<Map<String, Object>> get() {
        GenericKubernetesResource live = resource().get();
        return Optional.ofNullable(live).map(this::tree);
    }

    /**
     * POSTs {@code body}; a 409 means someone created it first and is left to the caller. What the server answers is
     * not turned into a tree: no caller needs it, and a first sync creates every object (the watch delivers it anyway).
     */
    public void create(Map<String, Object> body) {
        Resource<? extends HasMetadata> handle = handle(body);
        if (dryRun) handle.dryRun().create();
        else handle.create();
    }

    /** Sends an RFC 7386 JSON merge patch and returns the object as the server stored it. */
    public Map<String, Object> mergePatch(Map<String, Object> patch) {
        var context = PatchContext.of(PatchType.JSON_MERGE);
        String json = JsonTree.toJson(patch);
        return tree(dryRun ? resource().dryRun().patch(context, json) : resource().patch(context, json));
    }

    /**
     * Server-side apply as {@code fieldManager}. Unless {@code force}, a field another manager owns comes back as
     * a 409 conflict for a person to resolve, rather than being silently taken over.
     */
    public Map<String, Object> serverSideApply(Map<String, Object> body, String fieldManager, boolean force) {
        Resource<? extends HasMetadata> handle = handle(body);
        ServerSideApplicable<? extends HasMetadata> apply = dryRun
                ? handle.dryRun().fieldManager(fieldManager)
                : handle.fieldManager(fieldManager);
        return tree((force ? apply.forceConflicts() : apply).serverSideApply());
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

    /** Typed for kinds the client knows; generic (custom resources, found through discovery) for the rest. */
    private Resource<? extends HasMetadata> handle(Map<String, Object> body) {
        HasMetadata object = client.getKubernetesSerialization().unmarshal(JsonTree.toJson(body));
        return object instanceof GenericKubernetesResource g ? generic(g) : client.resource(object);
    }

    private Resource<GenericKubernetesResource> generic(GenericKubernetesResource item) {
        io.fabric8.kubernetes.client.dsl.MixedOperation<GenericKubernetesResource, io.fabric8.kubernetes.api.model.GenericKubernetesResourceList,
                Resource<GenericKubernetesResource>> kind;
        try {
            kind = client.genericKubernetesResources(apiVersion, ref.kind());
        } catch (KubernetesClientException e) {
            // Discovery answered and does not list the kind; a discovery request that failed stays what it was.
            if (Failures.classify(e) == Failures.Kind.Unresolved) throw new UnservedKind(apiVersion, ref.kind(), e);
            throw e;
        }
        return ref.namespaced() ? kind.inNamespace(ref.namespace()).resource(item) : kind.resource(item);
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> tree(Object object) {
        return client.getKubernetesSerialization().convertValue(object, Map.class);
    }
}
