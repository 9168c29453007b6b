package dev.windlass.git;

import java.util.Collections;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/** Files read from the status branch's tip, and that tip (empty when the branch did not exist yet). */
public record StatusRead(Optional<String> commit, SortedMap<String, byte[]> files) {
    public StatusRead {
        files = Collections.unmodifiableSortedMap(new TreeMap<>(files));
    }
}
