package dev.windlass.git;

/**
 * What a mirror holds on disk: packs, loose objects (reachable or not) and the compactions it made since it was opened.
 */
public record MirrorStorage(int packs, int looseObjects, int compactions) {
    @Override public String toString() {
        return packs + " packs, " + looseObjects + " loose objects, " + compactions + " compactions";
    }
}
