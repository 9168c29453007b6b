package dev.windlass.policy.plan;

/** What executing one action did. Failed outcomes say whether a later pass may succeed (transient) or not. */
public enum Outcome { Created, Configured, Unchanged, Deleted, Skipped, Failed }
