package dev.windlass.policy.parse;

import dev.windlass.policy.model.ObjectRef;

/**
 * Objects no application may declare: the records Windlass keeps on each cluster of what it applied (ConfigMaps
 * {@value #NAMESPACE}/{@value #INVENTORY_PREFIX}{@code <app>}) and the namespace that holds them. An application that
 * declared one could take another application's record over, or have it pruned. Keep in step with the applier's
 * {@code InventoryConfigMaps} (NAMESPACE and the name prefix), which this module cannot see.
 */
final class Reserved {
    static final String NAMESPACE = "windlass-system";
    static final String INVENTORY_PREFIX = "windlass-inventory-";

    private Reserved() {}

    /** Why {@code ref} may not be declared, or null. */
    static String why(ObjectRef ref) {
        if (ref.group().isEmpty() && ref.kind().equals("Namespace") && ref.name().equals(NAMESPACE)) {
            return "Namespace " + NAMESPACE + " holds Windlass's records of what it applied; an application may not declare it";
        }
        if (ref.group().isEmpty() && ref.kind().equals("ConfigMap") && ref.namespace().equals(NAMESPACE) && ref.name().startsWith(INVENTORY_PREFIX)) {
            return "ConfigMap " + NAMESPACE + "/" + ref.name() + " is Windlass's record of what an application applied; no application may "
                    + "declare it (names " + INVENTORY_PREFIX + "* in " + NAMESPACE + " are reserved)";
        }
        return null;
    }
}
