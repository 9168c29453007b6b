package dev.windlass.policy.kube;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The string formats a Kubernetes API server checks in object metadata, with the messages it gives when a value does
 * not fit, word for word (apimachinery {@code pkg/util/validation} and {@code pkg/api/validation/path}, v0.34). Each
 * check returns the list of problems, empty when the value is fine. Lengths are counted in UTF-8 bytes, as Go's
 * {@code len} does.
 */
public final class NameFormats {

    private static final String DNS1123_LABEL_FMT = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
    private static final String DNS1123_LABEL_MSG = "a lowercase RFC 1123 label must consist of lower case alphanumeric"
            + " characters or '-', and must start and end with an alphanumeric character";
    private static final String DNS1123_SUBDOMAIN_FMT = DNS1123_LABEL_FMT + "(\\." + DNS1123_LABEL_FMT + ")*";
    private static final String DNS1123_SUBDOMAIN_MSG = "a lowercase RFC 1123 subdomain must consist of lower case"
            + " alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
    private static final String DNS1035_LABEL_FMT = "[a-z]([-a-z0-9]*[a-z0-9])?";
    private static final String DNS1035_LABEL_MSG = "a DNS-1035 label must consist of lower case alphanumeric"
            + " characters or '-', start with an alphabetic character, and end with an alphanumeric character";
    private static final String QUALIFIED_NAME_FMT = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
    private static final String QUALIFIED_NAME_MSG = "must consist of alphanumeric characters, '-', '_' or '.', and"
            + " must start and end with an alphanumeric character";
    private static final String LABEL_VALUE_FMT = "(" + QUALIFIED_NAME_FMT + ")?";
    private static final String LABEL_VALUE_MSG = "a valid label must be an empty string or consist of alphanumeric"
            + " characters, '-', '_' or '.', and must start and end with an alphanumeric character";

    private static final Pattern DNS1123_LABEL = Pattern.compile(DNS1123_LABEL_FMT);
    private static final Pattern DNS1123_SUBDOMAIN = Pattern.compile(DNS1123_SUBDOMAIN_FMT);
    private static final Pattern DNS1035_LABEL = Pattern.compile(DNS1035_LABEL_FMT);
    private static final Pattern QUALIFIED_NAME = Pattern.compile(QUALIFIED_NAME_FMT);
    private static final Pattern LABEL_VALUE = Pattern.compile(LABEL_VALUE_FMT);

    public static final int DNS1123_LABEL_MAX = 63;
    public static final int DNS1123_SUBDOMAIN_MAX = 253;
    public static final int DNS1035_LABEL_MAX = 63;
    public static final int QUALIFIED_NAME_MAX = 63;
    public static final int LABEL_VALUE_MAX = 63;

    private NameFormats() {
    }

    /** A DNS-1123 subdomain: at most 253 bytes of lowercase alphanumerics, '-' and '.'. */
    public static List<String> dns1123Subdomain(String value) {
        List<String> errors = new ArrayList<>();
        if (utf8Length(value) > DNS1123_SUBDOMAIN_MAX) {
            errors.add(maxLength(DNS1123_SUBDOMAIN_MAX));
        }
        if (!DNS1123_SUBDOMAIN.matcher(value).matches()) {
            errors.add(regexError(DNS1123_SUBDOMAIN_MSG, DNS1123_SUBDOMAIN_FMT, "example.com"));
        }
        return errors;
    }

    /** A DNS-1123 label: at most 63 bytes of lowercase alphanumerics and '-'. */
    public static List<String> dns1123Label(String value) {
        List<String> errors = new ArrayList<>();
        if (utf8Length(value) > DNS1123_LABEL_MAX) {
            errors.add(maxLength(DNS1123_LABEL_MAX));
        }
        if (!DNS1123_LABEL.matcher(value).matches()) {
            if (DNS1123_SUBDOMAIN.matcher(value).matches()) {
                // A valid subdomain that is not a valid label: with the length checked, it must be the dots.
                errors.add("must not contain dots");
            } else {
                errors.add(regexError(DNS1123_LABEL_MSG, DNS1123_LABEL_FMT, "my-name", "123-abc"));
            }
        }
        return errors;
    }

    /** A DNS-1035 label: a DNS-1123 label that starts with a letter. */
    public static List<String> dns1035Label(String value) {
        List<String> errors = new ArrayList<>();
        if (utf8Length(value) > DNS1035_LABEL_MAX) {
            errors.add(maxLength(DNS1035_LABEL_MAX));
        }
        if (!DNS1035_LABEL.matcher(value).matches()) {
            errors.add(regexError(DNS1035_LABEL_MSG, DNS1035_LABEL_FMT, "my-name", "abc-123"));
        }
        return errors;
    }

    /** A name that can be one segment of a URL path: not "." or "..", no '/' or '%'. */
    public static List<String> pathSegment(String value) {
        if (value.equals(".") || value.equals("..")) {
            return List.of("may not be '" + value + "'");
        }
        return pathSegmentPrefix(value);
    }

    /** What a generateName must be for names that are path segments: no '/' or '%'. */
    public static List<String> pathSegmentPrefix(String value) {
        List<String> errors = new ArrayList<>();
        for (String illegal : List.of("/", "%")) {
            if (value.contains(illegal)) {
                errors.add("may not contain '" + illegal + "'");
            }
        }
        return errors;
    }

    /**
     * A label key or annotation key: an optional DNS-1123 subdomain prefix and '/', then a name of at most 63 bytes
     * of alphanumerics, '-', '_' and '.' that starts and ends with an alphanumeric.
     */
    public static List<String> qualifiedName(String value) {
        List<String> errors = new ArrayList<>();
        String[] parts = value.split("/", -1);
        String name;
        switch (parts.length) {
            case 1 -> name = parts[0];
            case 2 -> {
                String prefix = parts[0];
                name = parts[1];
                if (prefix.isEmpty()) {
                    errors.add("prefix part must be non-empty");
                } else {
                    dns1123Subdomain(prefix).forEach(message -> errors.add("prefix part " + message));
                }
            }
            default -> {
                errors.add("a qualified name " + regexError(QUALIFIED_NAME_MSG, QUALIFIED_NAME_FMT,
                        "MyName", "my.name", "123-abc")
                        + " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')");
                return errors;
            }
        }
        if (name.isEmpty()) {
            errors.add("name part must be non-empty");
        } else if (utf8Length(name) > QUALIFIED_NAME_MAX) {
            errors.add("name part " + maxLength(QUALIFIED_NAME_MAX));
        }
        if (!QUALIFIED_NAME.matcher(name).matches()) {
            errors.add("name part " + regexError(QUALIFIED_NAME_MSG, QUALIFIED_NAME_FMT, "MyName", "my.name", "123-abc"));
        }
        return errors;
    }

    /** A label value: empty, or at most 63 bytes of alphanumerics, '-', '_' and '.' starting and ending alphanumeric. */
    public static List<String> labelValue(String value) {
        List<String> errors = new ArrayList<>();
        if (utf8Length(value) > LABEL_VALUE_MAX) {
            errors.add(maxLength(LABEL_VALUE_MAX));
        }
        if (!LABEL_VALUE.matcher(value).matches()) {
            errors.add(regexError(LABEL_VALUE_MSG, LABEL_VALUE_FMT, "MyValue", "my_value", "12345"));
        }
        return errors;
    }

    /**
     * A generateName is checked as the name it starts, except that it may end in '-': the API server masks a
     * trailing dash before checking (the last two characters become "a"; the generated suffix follows anyway).
     */
    public static String maskTrailingDash(String prefix) {
        return prefix.length() > 1 && prefix.endsWith("-") ? prefix.substring(0, prefix.length() - 2) + "a" : prefix;
    }

    /** How many bytes the string takes in UTF-8: Go's {@code len}. */
    public static int utf8Length(String value) {
        return value.getBytes(StandardCharsets.UTF_8).length;
    }

    public static String maxLength(int length) {
        return "must be no more than " + length + " characters";
    }

    /** The API server's wording for a value that does not match a format, examples included. */
    private static String regexError(String message, String format, String... examples) {
        StringBuilder text = new StringBuilder(message).append(" (e.g. ");
        for (int i = 0; i < examples.length; i++) {
            if (i > 0) {
                text.append(" or ");
            }
            text.append('\'').append(examples[i]).append("', ");
        }
        return text.append("regex used for validation is '").append(format).append("')").toString();
    }
}
