package dev.windlass.engine.review;

/** One head to review: a branch, or a pull request head no reviewed branch points at. */
public record ReviewTarget(String ref, String branch, int pull, String head) {}
