package dev.windlass.githost;

/** A 2xx answer from the Git host. */
record Reply(int status, String body) {}
