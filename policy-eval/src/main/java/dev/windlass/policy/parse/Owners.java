package dev.windlass.policy.parse;

import dev.windlass.policy.model.ObjectRef;
import dev.windlass.policy.state.AppStatus;
import dev.windlass.policy.state.EngineState;
import dev.windlass.policy.state.InventoryEntry;
import dev.windlass.policy.state.TargetStatus;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * Who keeps an object that two applications declare: the one whose inventory holds it on that cluster, as the status
 * branch recorded it; where neither does, the one whose file came into the repo first. What the repo alone says
 * ({@link #NONE}) knows neither, and then both are held.
 */
public interface Owners {

    /** The application whose inventory on {@code cluster} holds {@code ref}, or null. */
    String holder(String cluster, ObjectRef ref);

    /** When {@code path} came into the repo, as an order (smaller: earlier; equal: in one commit), or null when not known. */
    Long introduced(String path);

    /** Nothing known: two applications declaring one object are both held. */
    Owners NONE = new Owners() {
        @Override public String holder(String cluster, ObjectRef ref) { return null; }

        @Override public Long introduced(String path) { return null; }
    };

    /** The inventories {@code state} recorded, and {@code introduced} for when files came into the repo. */
    static Owners of(EngineState state, Function<String, Long> introduced) {
        return of(held(state), introduced);
    }

    /** Per cluster, which application's recorded inventory holds each object: all {@link #of} reads of the state. */
    static Map<String, Map<ObjectRef, String>> held(EngineState state) {
        Map<String, Map<ObjectRef, String>> held = new HashMap<>();
        for (AppStatus app : state.apps().values()) {
            for (TargetStatus t : app.targets()) {
                if (t.inventory() == null) continue;
                for (InventoryEntry e : t.inventory()) held.computeIfAbsent(t.cluster(), c -> new HashMap<>()).putIfAbsent(e.ref(), app.name());
            }
        }
        return held;
    }

    /** @param held as {@link #held(EngineState)} gives it */
    static Owners of(Map<String, Map<ObjectRef, String>> held, Function<String, Long> introduced) {
        return new Owners() {
            @Override public String holder(String cluster, ObjectRef ref) { return held.getOrDefault(cluster, Map.of()).get(ref); }

            @Override public Long introduced(String path) { return introduced.apply(path); }
        };
    }
}
