package chat.buzz.relay.docs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The worked examples of a Markdown page: fenced blocks whose info string is {@code <language> example=<name>}
 * (what the client sends, or a whole WebSocket conversation) or {@code <language> response=<name>} (what the
 * relay answers). Other fenced blocks are prose and ignored.
 */
record DocExamples(Map<String, String> examples, Map<String, String> responses) {
    private static final Pattern MARKER = Pattern.compile("^```\\w+ (example|response)=([a-z0-9-]+)$");

    static DocExamples read(Path file) throws IOException {
        Map<String, String> examples = new LinkedHashMap<>();
        Map<String, String> responses = new LinkedHashMap<>();
        Map<String, String> target = null;
        String name = null;
        String kind = null;
        StringBuilder block = null;
        for (String line : Files.readAllLines(file)) {
            Matcher marker = MARKER.matcher(line.strip());
            if (block == null && marker.matches()) {
                kind = marker.group(1);
                target = kind.equals("example") ? examples : responses;
                name = marker.group(2);
                block = new StringBuilder();
            } else if (block != null && line.strip().equals("```")) {
                if (target.put(name, block.toString()) != null) {
                    throw new IllegalStateException(file + " has two " + kind + " blocks named " + name);
                }
                block = null;
            } else if (block != null) {
                block.append(line).append('\n');
            }
        }
        if (block != null) {
            throw new IllegalStateException(file + " has an unterminated example block " + name);
        }
        return new DocExamples(Map.copyOf(examples), Map.copyOf(responses));
    }

    /** Every name that has an example block or a response block. */
    Set<String> names() {
        Set<String> names = new TreeSet<>(examples.keySet());
        names.addAll(responses.keySet());
        return names;
    }

    String example(String name) {
        return required(examples, "example", name);
    }

    String response(String name) {
        return required(responses, "response", name);
    }

    private static String required(Map<String, String> blocks, String kind, String name) {
        String block = blocks.get(name);
        if (block == null) {
            throw new AssertionError("docs/protocol.md has no block ```... " + kind + "=" + name);
        }
        return block;
    }
}
