package dev.windlass.policy.state;

/** Whether a cluster's API server answered on the last pass. */
public enum Reachability { Reachable, Unreachable }
