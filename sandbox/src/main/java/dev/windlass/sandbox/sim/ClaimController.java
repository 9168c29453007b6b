package dev.windlass.sandbox.sim;

import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimStatusBuilder;
import io.fabric8.kubernetes.api.model.Quantity;

import java.util.List;
import java.util.Map;

/** Binds a PersistentVolumeClaim after the delay, with the access modes and storage it asked for; Pending before. */
final class ClaimController implements Controller<PersistentVolumeClaim> {

    @Override public Class<PersistentVolumeClaim> type() {
        return PersistentVolumeClaim.class;
    }

    @Override public boolean apply(PersistentVolumeClaim claim, Progress progress) {
        if (!progress.ready()) {
            claim.setStatus(new PersistentVolumeClaimStatusBuilder().withPhase("Pending").build());
            return true;
        }
        var spec = claim.getSpec();
        List<String> modes = spec == null ? List.of() : spec.getAccessModes();
        Quantity storage = spec == null || spec.getResources() == null || spec.getResources().getRequests() == null
                ? null : spec.getResources().getRequests().get("storage");
        claim.setStatus(new PersistentVolumeClaimStatusBuilder()
                .withPhase("Bound")
                .withAccessModes(modes)
                .withCapacity(storage == null ? Map.of() : Map.of("storage", storage))
                .build());
        return true;
    }
}
