package dev.windlass.policy.plan;

/** What an action does to one object on one cluster. */
public enum Operation { Create, Update, Delete }
