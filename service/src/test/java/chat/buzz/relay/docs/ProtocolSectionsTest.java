package chat.buzz.relay.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Code and docs cite the contract as "PROTOCOL 4.2"; docs/protocol.md must have exactly the contract's numbered
 * sections, with its titles, in its order, so every such reference lands on the section it means.
 */
class ProtocolSectionsTest {
    private static final Path DOCUMENT = Path.of("..", "docs", "protocol.md");
    private static final Pattern NUMBERED = Pattern.compile("^#{2,3} [0-9].*");

    /** The numbered headings of PROTOCOL.md, version 1. */
    private static final List<String> CONTRACT_SECTIONS = List.of(
            "## 1. Events and signatures (NIP-01)",
            "## 2. Authentication",
            "### 2.1 Signed HTTP (NIP-98)",
            "### 2.2 WebSocket (NIP-42)",
            "### 2.3 Tenancy",
            "## 3. Writes: `POST /events`",
            "### 3.1 Channels and memberships (NIP-29 kinds, all carry `[\"h\", <channel uuid>]`)",
            "### 3.2 Artifact revisions (kind 45010)",
            "### 3.3 Moves and removal markers (kind 45011)",
            "### 3.4 Redaction",
            "## 4. Reads: `POST /query`",
            "### 4.1 Delta read",
            "### 4.2 What a delta read must guarantee",
            "### 4.3 Known-ID read",
            "### 4.4 Policy changes and resets",
            "### 4.4a Digest read (self-check)",
            "### 4.5 Errors of the incremental mode",
            "### 4.6 Channel metadata (NIP-29 kinds 39000-39002)",
            "## 5. WebSocket sync (`artifacts.sync`)",
            "## 6. Information document (NIP-11)",
            "## 7. Gates");

    @Test
    void theNumberedSectionsAreTheContractsOwn() throws IOException {
        List<String> headings = Files.readAllLines(DOCUMENT).stream()
                .filter(line -> NUMBERED.matcher(line).matches())
                .toList();

        assertEquals(CONTRACT_SECTIONS, headings);
    }
}
