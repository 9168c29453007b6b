package dev.windlass.policy.parse;

import dev.windlass.policy.text.Excerpt;
import java.util.Map;
import java.util.regex.Pattern;

/** {@code metadata} of a Windlass object: a DNS-label name (it becomes a file name in status) and labels. */
record Metadata(String name, Map<String, String> labels, Map<String, String> annotations) {

    private static final Pattern DNS_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");

    static Metadata read(Fields root) {
        Fields m = root.object("metadata");
        if (m == null) {
            root.errorHere(root.name("metadata") + " is required, with at least a name");
            return null;
        }
        String name = m.requiredString("name");
        Map<String, String> labels = m.stringMap("labels");
        Map<String, String> annotations = m.stringMap("annotations");
        m.end();
        if (name == null) return null;
        if (!DNS_LABEL.matcher(name).matches()) {
            m.error("name", "name " + Excerpt.quoted(name) + " is not a valid name: use lowercase letters, digits and '-', start and end with a letter or digit, at most 63 characters");
            return null;
        }
        return new Metadata(name, labels, annotations);
    }
}
