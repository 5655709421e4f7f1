package chat.buzz.relay.architecture;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Finds wire words spelled as string literals in Java sources. The words are the values of the public
 * string constants of the protocol's vocabulary classes, read by reflection, so a constant added there is
 * looked for at once. A value ending in {@code ": "} is a message prefix: a literal that starts with it
 * (or quotes it inside JSON text) spells it. Any other value is a word: a literal equal to it, or one that
 * quotes it as JSON text does ({@code ["EOSE",...}), spells it; lowercase words alone are left out (see
 * {@link #PLAIN_WORD}). Comments are not code and are skipped.
 */
final class WireLiterals {
    /** One literal that spells a wire word, at a 1-based line of a file. */
    record Finding(String file, int line, String literal, String word) {
        @Override
        public String toString() {
            return file + ":" + line + ": \"" + literal.strip() + "\" spells " + word;
        }
    }

    /**
     * A lowercase word alone ({@code error}, {@code message}, {@code channel}: the fields of an error body)
     * is also a column, a parameter and an option name, so its text cannot tell a wire use from another.
     */
    private static final Pattern PLAIN_WORD = Pattern.compile("[a-z]+");

    private final Set<String> words = new LinkedHashSet<>();
    private final Set<String> prefixes = new LinkedHashSet<>();

    WireLiterals(List<Class<?>> vocabulary) {
        for (Class<?> type : vocabulary) {
            for (Field field : type.getDeclaredFields()) {
                int modifiers = field.getModifiers();
                if (field.getType() == String.class
                        && Modifier.isPublic(modifiers)
                        && Modifier.isStatic(modifiers)
                        && Modifier.isFinal(modifiers)) {
                    add(value(field));
                }
            }
        }
    }

    Set<String> words() {
        return words;
    }

    Set<String> prefixes() {
        return prefixes;
    }

    private void add(String value) {
        if (value.endsWith(": ")) {
            prefixes.add(value.strip());
        } else if (value.contains(": ")) {
            // A whole message ("sync_reset: policy changed"): its prefix is the word on the wire.
            prefixes.add(value.substring(0, value.indexOf(": ") + 1));
        } else if (!PLAIN_WORD.matcher(value).matches()) {
            words.add(value);
        }
    }

    private static String value(Field field) {
        try {
            return (String) field.get(null);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(field.toString(), e);
        }
    }

    /** Every literal in the {@code .java} files under {@code root} that spells a wire word. */
    List<Finding> scanTree(Path root) {
        List<Finding> findings = new ArrayList<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path file :
                    files.filter(p -> p.toString().endsWith(".java")).sorted().toList()) {
                findings.addAll(scan(file.toString(), Files.readString(file)));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return findings;
    }

    List<Finding> scan(String file, String source) {
        List<Finding> findings = new ArrayList<>();
        for (JavaLiterals.Literal literal : JavaLiterals.of(source)) {
            String word = spelledWord(literal.text());
            if (word != null) {
                findings.add(new Finding(file, literal.line(), literal.text(), word));
            }
        }
        return findings;
    }

    /** The wire word {@code literal} spells, or null. */
    String spelledWord(String literal) {
        for (String prefix : prefixes) {
            if (literal.startsWith(prefix) || literal.contains("\"" + prefix)) {
                return prefix;
            }
        }
        for (String word : words) {
            if (literal.equals(word) || literal.contains("\"" + word + "\"")) {
                return word;
            }
        }
        return null;
    }
}
