package dev.windlass.policy.state;

/** Whether a cluster runs what Git says for an application: Synced, OutOfSync, or Unknown (it could not be asked). */
public enum Sync { Synced, OutOfSync, Unknown }
