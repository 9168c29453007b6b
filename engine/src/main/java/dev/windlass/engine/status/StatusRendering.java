package dev.windlass.engine.status;

import dev.windlass.policy.state.EngineState;
import java.util.HashMap;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * {@link StatusFiles#render} for one engine, pass after pass: a file whose content is equal to what it held last pass
 * keeps its bytes, so a pass writes YAML only for the applications and clusters whose status changed. The files are
 * those {@link StatusFiles#render} gives for the same state ({@code StatusRenderingTest}). One per engine; not
 * thread-safe (the reconciler renders under its own lock).
 */
public final class StatusRendering {
    private record Rendered(Object value, byte[] bytes) {}

    private Map<String, Rendered> last = new HashMap<>();
    private int renderedLastPass;

    /** Every file that represents {@code state}, by path. */
    public SortedMap<String, byte[]> render(EngineState state) {
        Map<String, Rendered> now = new HashMap<>();
        SortedMap<String, byte[]> files = new TreeMap<>();
        int rendered = 0;
        for (Map.Entry<String, Object> e : StatusFiles.contents(state).entrySet()) {
            Rendered before = last.get(e.getKey());
            Rendered r = before != null && before.value.equals(e.getValue()) ? before : new Rendered(e.getValue(), StatusFiles.file(e.getValue()));
            if (r != before) rendered++;
            now.put(e.getKey(), r);
            files.put(e.getKey(), r.bytes);
        }
        last = now;
        renderedLastPass = rendered;
        return files;
    }

    /** How many files the last {@link #render} wrote as YAML; the rest kept their bytes. */
    public int renderedLastPass() { return renderedLastPass; }
}
