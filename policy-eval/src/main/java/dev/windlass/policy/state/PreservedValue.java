package dev.windlass.policy.state;

/**
 * A value a failover carries from the old copy of an application to the new one.
 *
 * @param label  the label it is written as ({@code aliasLabelName})
 * @param value  what the rule's JSONPath read
 * @param object the object it was read from, and is written to on the new cluster ({@code apps/StatefulSet stream/ingest})
 */
public record PreservedValue(String label, String value, String object) {}
