/** Plans as people and tools read them: Markdown for review, YAML and JSON for machines. Deterministic text. */
package dev.windlass.policy.render;
