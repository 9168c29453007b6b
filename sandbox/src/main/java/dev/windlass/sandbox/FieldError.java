package dev.windlass.sandbox;

/**
 * One problem with one field of an object, worded as the API server words it (apimachinery
 * {@code pkg/util/validation/field}): {@code metadata.name: Invalid value: "Bad_Name": a lowercase RFC 1123 ...}.
 *
 * @param type what kind of problem it is
 * @param field the field's path, such as {@code metadata.labels}
 * @param value the offending value, quoted in the message; null for types that never show it
 * @param detail what is wrong with it
 */
record FieldError(Type type, String field, String value, String detail) {

    /** The problem types the sandbox reports, with the words and cause reason the API server uses for each. */
    enum Type {
        INVALID("Invalid value", "FieldValueInvalid"),
        REQUIRED("Required value", "FieldValueRequired"),
        TOO_LONG("Too long", "FieldValueTooLong");

        private final String words;
        private final String reason;

        Type(String words, String reason) {
            this.words = words;
            this.reason = reason;
        }

        /** The {@code reason} of a cause in a Status: {@code FieldValueInvalid} and so on. */
        String reason() {
            return reason;
        }
    }

    static FieldError invalid(String field, String value, String detail) {
        return new FieldError(Type.INVALID, field, value, detail);
    }

    static FieldError required(String field, String detail) {
        return new FieldError(Type.REQUIRED, field, null, detail);
    }

    /** The API server says only the limit, never the value: {@code Too long: may not be more than 262144 bytes}. */
    static FieldError tooLong(String field, long limitBytes) {
        return new FieldError(Type.TOO_LONG, field, null,
                "may not be more than " + limitBytes + " bytes");
    }

    /** The message without the field, as a Status cause carries it. */
    String body() {
        String text = type.words;
        if (type == Type.INVALID) {
            text += ": " + quoted(value);
        }
        return detail.isEmpty() ? text : text + ": " + detail;
    }

    /** The whole message, field first, as the Status message lists it. */
    String message() {
        return field + ": " + body();
    }

    /**
     * A string as Go's {@code %q} prints it, for the characters names, labels and annotation keys hold: in double
     * quotes, with backslash escapes for quotes, backslashes and ASCII control characters. (Go also escapes Unicode
     * characters that do not print; those are left as they are here.)
     */
    static String quoted(String value) {
        StringBuilder out = new StringBuilder(value.length() + 2).append('"');
        for (char c : value.toCharArray()) {
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                case 7 -> out.append("\\a");
                case 11 -> out.append("\\v");
                default -> {
                    if (c < 0x20 || c == 0x7f) {
                        out.append(String.format("\\x%02x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"').toString();
    }
}
