package chat.buzz.client.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** Every buzz-sync command line that docs/client.md and the README show parses as written. */
class DocumentedCommandLinesTest {
    private static final String JAR = "java -jar client/target/buzz-sync.jar ";
    private static final Map<String, String> PLACEHOLDERS = Map.of(
            "<channel-id>", "6f1c2a3b-4d5e-4f60-8a71-92b3c4d5e6f7",
            "<other-channel-id>", "0b9c3f5e-4d1e-4bde-8a57-8d2b1c1f6e00",
            "<artifact-id>", "99999999-8888-4777-8666-555555555555",
            "<pubkey>", "ab".repeat(32),
            "$BOB", "cd".repeat(32),
            "[--role admin|member]", "--role admin");

    @Test
    void everyLineOfDocsClientMdParses() throws IOException {
        List<String> lines = commandLines(Path.of("..", "docs", "client.md"));
        assertThat(lines).hasSizeGreaterThan(20);
        lines.forEach(DocumentedCommandLinesTest::parses);
    }

    @Test
    void everyLineOfTheReadmeWalkThroughParses() throws IOException {
        List<String> lines = commandLines(Path.of("..", "README.md"));
        assertThat(lines).hasSizeGreaterThan(15).anyMatch(line -> line.startsWith("member add plans"));
        lines.forEach(DocumentedCommandLinesTest::parses);
    }

    private static void parses(String line) {
        List<String> args = words(line);
        assertThatCode(() -> new CommandLine(new BuzzSync(false)).parseArgs(args.toArray(String[]::new)))
                .as(line)
                .doesNotThrowAnyException();
    }

    /**
     * The buzz-sync command lines of a document's sh blocks, without "buzz-sync" or what stands for it
     * ({@code alice}, {@code bob}, {@code java -jar ...}) and without trailing comments.
     */
    static List<String> commandLines(Path document) throws IOException {
        List<String> found = new ArrayList<>();
        boolean inShell = false;
        for (String raw : Files.readAllLines(document)) {
            if (raw.startsWith("```")) {
                inShell = raw.equals("```sh");
                continue;
            }
            if (!inShell) {
                continue;
            }
            String line = raw.strip();
            int comment = line.indexOf("  #");
            line = comment < 0 ? line : line.substring(0, comment).strip();
            int pipe = line.lastIndexOf("| buzz-sync ");
            line = pipe < 0 ? line : line.substring(pipe + 2);
            int substitution = line.indexOf("$(" + JAR);
            if (substitution >= 0) {
                line = line.substring(substitution + 2, line.indexOf(" |", substitution));
            }
            if (line.startsWith("buzz-sync ")) {
                found.add(line.substring("buzz-sync ".length()));
            } else if (line.startsWith(JAR)) {
                found.add(line.substring(JAR.length()));
            } else if (line.startsWith("alice ") || line.startsWith("bob ")) {
                String user = line.substring(0, line.indexOf(' '));
                found.add(line.substring(user.length() + 1) + " --key " + user + ".key --store " + user + ".db");
            }
        }
        return found;
    }

    /** Splits as a shell would for these lines: words, "double" and 'single' quotes; placeholders filled in. */
    private static List<String> words(String line) {
        String filled = line;
        for (Map.Entry<String, String> placeholder : PLACEHOLDERS.entrySet()) {
            filled = filled.replace(placeholder.getKey(), placeholder.getValue());
        }
        List<String> words = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        boolean inWord = false;
        char quote = 0;
        for (char c : filled.toCharArray()) {
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                } else {
                    word.append(c);
                }
            } else if (c == '"' || c == '\'') {
                quote = c;
                inWord = true;
            } else if (c == ' ') {
                if (inWord) {
                    words.add(word.toString());
                    word.setLength(0);
                    inWord = false;
                }
            } else {
                word.append(c);
                inWord = true;
            }
        }
        if (inWord) {
            words.add(word.toString());
        }
        return words;
    }
}
