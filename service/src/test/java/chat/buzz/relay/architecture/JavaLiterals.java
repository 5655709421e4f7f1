package chat.buzz.relay.architecture;

import java.util.ArrayList;
import java.util.List;

/** The string literals and text blocks of a Java source, with their lines, leaving out comments. */
final class JavaLiterals {
    /** A literal's text with its escapes resolved, and the 1-based line it starts on. */
    record Literal(int line, String text) {}

    private JavaLiterals() {}

    static List<Literal> of(String source) {
        List<Literal> literals = new ArrayList<>();
        int line = 1;
        int i = 0;
        int n = source.length();
        while (i < n) {
            char c = source.charAt(i);
            if (c == '\n') {
                line++;
                i++;
            } else if (source.startsWith("//", i)) {
                while (i < n && source.charAt(i) != '\n') {
                    i++;
                }
            } else if (source.startsWith("/*", i)) {
                int end = source.indexOf("*/", i + 2);
                end = end < 0 ? n : end + 2;
                line += count(source, i, end);
                i = end;
            } else if (c == '\'') {
                i = skipCharLiteral(source, i);
            } else if (source.startsWith("\"\"\"", i)) {
                int end = source.indexOf("\"\"\"", i + 3);
                while (end > 0 && source.charAt(end - 1) == '\\') {
                    end = source.indexOf("\"\"\"", end + 1);
                }
                end = end < 0 ? n : end;
                literals.add(new Literal(line, unescape(source.substring(i + 3, end))));
                line += count(source, i, end);
                i = Math.min(n, end + 3);
            } else if (c == '"') {
                StringBuilder text = new StringBuilder();
                int j = i + 1;
                while (j < n && source.charAt(j) != '"' && source.charAt(j) != '\n') {
                    if (source.charAt(j) == '\\' && j + 1 < n) {
                        text.append(source, j, j + 2);
                        j += 2;
                    } else {
                        text.append(source.charAt(j++));
                    }
                }
                literals.add(new Literal(line, unescape(text.toString())));
                i = j + 1;
            } else {
                i++;
            }
        }
        return literals;
    }

    private static int skipCharLiteral(String source, int start) {
        int j = start + 1;
        if (j < source.length() && source.charAt(j) == '\\') {
            j += 2;
        } else {
            j++;
        }
        while (j < source.length() && source.charAt(j) != '\'') {
            j++;
        }
        return j + 1;
    }

    private static int count(String source, int from, int to) {
        int lines = 0;
        for (int k = from; k < to; k++) {
            if (source.charAt(k) == '\n') {
                lines++;
            }
        }
        return lines;
    }

    private static String unescape(String text) {
        StringBuilder out = new StringBuilder(text.length());
        for (int k = 0; k < text.length(); k++) {
            char c = text.charAt(k);
            if (c == '\\' && k + 1 < text.length()) {
                char next = text.charAt(++k);
                out.append(
                        switch (next) {
                            case 'n' -> '\n';
                            case 't' -> '\t';
                            case 'r' -> '\r';
                            case 'b' -> '\b';
                            case 'f' -> '\f';
                            case 's' -> ' ';
                            default -> next;
                        });
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }
}
