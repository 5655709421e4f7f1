package chat.buzz.relay.docs;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One HTTP message of an example block: a start line, header lines, a blank line and the body (empty when
 * there is none). For a request the start line is {@code METHOD /path HTTP/1.1}; for a response
 * {@code HTTP/1.1 <status> <reason>}.
 */
record HttpExample(String startLine, Map<String, String> headers, String body) {

    static HttpExample parse(String block) {
        String[] parts = block.split("\n\n", 2);
        String[] lines = parts[0].split("\n");
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            if (colon < 0) {
                throw new AssertionError("not a header line: " + lines[i]);
            }
            headers.put(
                    lines[i].substring(0, colon).strip(),
                    lines[i].substring(colon + 1).strip());
        }
        return new HttpExample(lines[0], headers, parts.length > 1 ? parts[1].strip() : "");
    }

    String method() {
        return startLine.split(" ")[0];
    }

    String path() {
        return startLine.split(" ")[1];
    }

    int status() {
        return Integer.parseInt(startLine.split(" ")[1]);
    }
}
