package dev.windlass.engine.status.v1;

import java.util.Arrays;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Collectors;

/** Enumerations as the words the status files hold, read back strictly: a word the engine does not know is refused. */
final class Words {
    private Words() {}

    static String of(Enum<?> value) { return value == null ? null : value.name(); }

    /** The constant of {@code type} named {@code word}; null for null; else an error naming the field and the words known. */
    static <E extends Enum<E>> E read(Class<E> type, String word, String field) {
        if (word == null) return null;
        for (E e : type.getEnumConstants()) if (e.name().equals(word)) return e;
        throw new IllegalArgumentException(field + ": '" + word + "' is not one of "
                + Arrays.stream(type.getEnumConstants()).map(Enum::name).collect(Collectors.joining(", ")));
    }

    /** {@code list} mapped, null kept null. */
    static <A, B> List<B> map(List<A> list, Function<A, B> f) {
        return list == null ? null : list.stream().map(f).toList();
    }
}
