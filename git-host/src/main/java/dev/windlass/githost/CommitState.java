package dev.windlass.githost;

/** The state of a commit status, spelled as both host dialects spell it. */
public enum CommitState {
    pending,
    success,
    failure,
    error
}
