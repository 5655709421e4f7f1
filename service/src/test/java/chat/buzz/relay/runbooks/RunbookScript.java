package chat.buzz.relay.runbooks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The fenced sh blocks of one runbook, joined in order into the script an operator would type. */
public record RunbookScript(Path file, List<String> blocks) {

    public static RunbookScript read(Path file) throws IOException {
        List<String> blocks = new ArrayList<>();
        StringBuilder block = null;
        for (String line : Files.readAllLines(file)) {
            if (block == null && line.strip().equals("```sh")) {
                block = new StringBuilder();
            } else if (block != null && line.strip().equals("```")) {
                blocks.add(block.toString());
                block = null;
            } else if (block != null) {
                block.append(line).append('\n');
            }
        }
        if (block != null) {
            throw new IllegalStateException(file + " has an unterminated code block");
        }
        return new RunbookScript(file, List.copyOf(blocks));
    }

    /** Blocks {@code from} (inclusive) to {@code to} (exclusive), for a test that acts between steps. */
    public RunbookScript blocks(int from, int to) {
        return new RunbookScript(file, blocks.subList(from, to));
    }

    /** Stops at the first failing command, as an operator should. */
    public String script() {
        StringBuilder script = new StringBuilder("set -euo pipefail\n");
        for (int i = 0; i < blocks.size(); i++) {
            script.append("echo '--- ")
                    .append(file.getFileName())
                    .append(" block ")
                    .append(i + 1)
                    .append("' >&2\n");
            script.append(blocks.get(i));
        }
        return script.toString();
    }
}
