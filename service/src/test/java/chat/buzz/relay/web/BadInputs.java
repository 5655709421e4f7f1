package chat.buzz.relay.web;

import chat.buzz.protocol.Kinds;
import chat.buzz.protocol.NostrKeys;
import chat.buzz.protocol.Tags;
import chat.buzz.relay.testing.Nostr;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;

/**
 * The rows of the bad-input catalogue. Each HTTP path has a template whose string value "MARK" the
 * generic rows replace (with bad bytes, NUL, deep nesting, thousands of keys, a huge string); the
 * rest are written per path.
 */
final class BadInputs {
    static final NostrKeys CALLER = NostrKeys.generate();
    /** Over Jetty's default 8 KiB request header limit. */
    static final int OVERSIZED_HEADER_BYTES = 64 * 1024;
    /** Over relay.maxBodyBytes (512 KiB). */
    private static final int OVERSIZED_BODY_BYTES = 600 * 1024;

    private static final String MARK = "\"MARK\"";
    /** The admin API's own body limit (OpsApiRequests). */
    private static final int ADMIN_MAX_BODY_BYTES = 16 * 1024;

    private BadInputs() {}

    // Test parameters, never compared or hashed.
    @SuppressWarnings("ArrayRecordComponent")
    record Row(String name, String path, byte[] body, int expectedStatus) {
        @Override
        public String toString() {
            return path + " " + name;
        }
    }

    static List<Row> events() {
        String template = Nostr.sign(
                        CALLER,
                        Kinds.CREATE_CHANNEL,
                        List.of(
                                List.of(Tags.CHANNEL, UUID.randomUUID().toString()),
                                List.of(Tags.CHANNEL_NAME, "catalogue")),
                        "MARK")
                .toJson();
        List<Row> rows = new ArrayList<>(generic("/events", template));
        rows.add(row(
                "/events",
                "wrong type: kind as a string",
                template.replaceFirst(
                        "\"kind\":" + Kinds.CREATE_CHANNEL, "\"kind\":\"" + Kinds.CREATE_CHANNEL + "\"")));
        rows.add(row(
                "/events",
                "wrong type: tags as an object",
                template.replaceFirst("\"tags\":\\[", "\"tags\":{\"a\":[").replace("]],", "]},")));
        rows.add(row(
                "/events",
                "huge number: created_at past a long",
                template.replaceFirst("\"created_at\":\\d+", "\"created_at\":99999999999999999999999")));
        rows.add(row(
                "/events",
                "huge number: 400 digits",
                template.replaceFirst("\"created_at\":\\d+", "\"created_at\":" + "9".repeat(400))));
        rows.add(row(
                "/events",
                "huge number: exponent",
                template.replaceFirst("\"kind\":" + Kinds.CREATE_CHANNEL, "\"kind\":1e999999")));
        rows.add(row("/events", "duplicate keys", template.replaceFirst("\\{", "{\"content\":\"other\",")));
        rows.add(row(
                "/events",
                "thousands of tags",
                Nostr.sign(
                                CALLER,
                                Kinds.CREATE_CHANNEL,
                                IntStream.range(0, 5000)
                                        .mapToObj(i -> List.of("t", "v" + i))
                                        .toList(),
                                "")
                        .toJson()));
        rows.add(row("/events", "top level is an array", "[" + template + "]"));
        return rows;
    }

    static List<Row> currentQueries() {
        String template = "[{\"artifact\":\"current\",\"limit\":5,\"#t\":[\"MARK\"]}]";
        List<Row> rows = new ArrayList<>(generic("/query", template));
        rows.add(row(
                "/query",
                "current: wrong type: limit as a string",
                template.replace("\"limit\":5", "\"limit\":\"5\"")));
        rows.add(row(
                "/query",
                "current: huge number: limit",
                template.replace("\"limit\":5", "\"limit\":99999999999999999999999")));
        rows.add(
                row("/query", "current: huge number: exponent", template.replace("\"limit\":5", "\"limit\":1e999999")));
        rows.add(row(
                "/query",
                "current: duplicate keys",
                template.replace("{\"artifact\":\"current\",", "{\"artifact\":\"current\",\"artifact\":\"current\",")));
        rows.add(row(
                "/query", "current: thousands of tag values", template.replace(MARK, quotedList(5000, i -> "v" + i))));
        rows.add(row(
                "/query",
                "current: thousands of tag keys",
                "[{\"artifact\":\"current\","
                        + IntStream.range(0, 3000)
                                .mapToObj(i -> "\"#k" + i + "\":[\"v\"]")
                                .collect(Collectors.joining(","))
                        + "}]"));
        rows.add(row("/query", "current: two filters", "[{\"artifact\":\"current\"},{\"artifact\":\"current\"}]"));
        rows.add(row("/query", "current: lone surrogate in a tag value", template.replace(MARK, "\"\\ud800\"")));
        return rows;
    }

    static List<Row> incrementalQueries() {
        String template = "[{\"artifact\":\"incremental\",\"limit\":5,\"#h\":[\"MARK\"]}]";
        List<Row> rows = new ArrayList<>(generic("/query", template).stream()
                .map(r -> new Row("incremental: " + r.name(), r.path(), r.body(), r.expectedStatus()))
                .toList());
        rows.add(row(
                "/query",
                "incremental: wrong type: limit as an array",
                template.replace("\"limit\":5", "\"limit\":[5]")));
        rows.add(row(
                "/query",
                "incremental: wrong type: since as a number",
                template.replace("\"limit\":5", "\"since\":5")));
        rows.add(row(
                "/query",
                "incremental: huge number: limit",
                template.replace("\"limit\":5", "\"limit\":99999999999999999999999")));
        rows.add(row(
                "/query", "incremental: huge number: exponent", template.replace("\"limit\":5", "\"limit\":1e999999")));
        rows.add(row(
                "/query", "incremental: duplicate keys", template.replace("\"limit\":5", "\"limit\":5,\"limit\":6")));
        rows.add(row(
                "/query",
                "incremental: thousands of channels",
                template.replace(MARK, quotedList(5000, i -> new UUID(0, i).toString()))));
        rows.add(row(
                "/query",
                "incremental: thousands of ids",
                "[{\"artifact\":\"incremental\",\"#d\":[" + quotedList(5000, i -> new UUID(1, i).toString()) + "]}]"));
        rows.add(row(
                "/query",
                "incremental: a forged cursor",
                "[{\"artifact\":\"incremental\",\"since\":\"" + "A".repeat(188) + "\"}]"));
        return rows;
    }

    /** The rows every body-taking path gets, from its template. */
    private static List<Row> generic(String path, String template) {
        List<Row> rows = new ArrayList<>();
        rows.add(row(path, "malformed JSON: a colon missing", template.replaceFirst(":", "")));
        rows.add(row(path, "malformed JSON: a trailing comma", template.replace(MARK, MARK + ",")));
        rows.add(row(path, "truncated JSON", template.substring(0, template.length() / 2)));
        rows.add(row(path, "empty body", ""));
        rows.add(row(path, "not JSON", "hello"));
        rows.add(row(path, "trailing garbage", template + "x"));
        rows.add(new Row(
                "invalid UTF-8: a broken two-byte sequence",
                path,
                replaceMark(template, new byte[] {'"', (byte) 0xC3, 0x28, '"'}),
                0));
        rows.add(new Row(
                "invalid UTF-8: an overlong slash",
                path,
                replaceMark(template, new byte[] {'"', (byte) 0xC0, (byte) 0xAF, '"'}),
                0));
        rows.add(new Row(
                "invalid UTF-8: a lone continuation byte",
                path,
                replaceMark(template, new byte[] {'"', (byte) 0x80, '"'}),
                0));
        rows.add(new Row("a raw NUL byte in a string", path, replaceMark(template, new byte[] {'"', 0, '"'}), 0));
        rows.add(row(path, "an escaped NUL in a string", template.replace(MARK, "\"a\\u0000b\"")));
        rows.add(row(path, "deep nesting", template.replace(MARK, "[".repeat(5000) + "]".repeat(5000))));
        rows.add(row(path, "moderate nesting past the limit", template.replace(MARK, "[".repeat(40) + "]".repeat(40))));
        rows.add(row(
                path,
                "thousands of keys",
                template.replace(
                        MARK,
                        "{"
                                + IntStream.range(0, 5000)
                                        .mapToObj(i -> "\"k" + i + "\":1")
                                        .collect(Collectors.joining(","))
                                + "}")));
        rows.add(row(
                path, "a string too long for any field", template.replace(MARK, "\"" + "s".repeat(200_000) + "\"")));
        rows.add(new Row(
                "oversized body",
                path,
                utf8(template.replace(MARK, "\"" + "a".repeat(OVERSIZED_BODY_BYTES) + "\"")),
                413));
        return rows;
    }

    static Stream<Arguments> webSocketFrames() {
        return Stream.of(
                Arguments.of("malformed JSON", "[\"REQ\",\"s\",{\"artifact\" \"sync\"}]"),
                Arguments.of("truncated JSON", "[\"REQ\",\"s\",{\"artif"),
                Arguments.of("not JSON", "hello"),
                Arguments.of("empty frame", ""),
                Arguments.of("trailing garbage", "[\"CLOSE\",\"s\"] x"),
                Arguments.of("wrong type: subscription id as a number", "[\"REQ\",5,{\"artifact\":\"sync\"}]"),
                Arguments.of("wrong type: filter as an array", "[\"REQ\",\"s\",[\"artifact\",\"sync\"]]"),
                Arguments.of("wrong type: #h as a string", "[\"REQ\",\"s\",{\"artifact\":\"sync\",\"#h\":\"x\"}]"),
                Arguments.of("wrong type: verb as a number", "[42]"),
                Arguments.of(
                        "huge number", "[\"REQ\",\"s\",{\"artifact\":\"sync\",\"limit\":" + "9".repeat(400) + "}]"),
                Arguments.of("huge number: exponent", "[\"REQ\",\"s\",{\"artifact\":\"sync\",\"limit\":1e999999}]"),
                Arguments.of("NUL in the subscription id", "[\"REQ\",\"a\\u0000b\",{\"artifact\":\"sync\"}]"),
                Arguments.of("lone surrogate in the subscription id", "[\"REQ\",\"a\\ud800\",{\"artifact\":\"sync\"}]"),
                Arguments.of("deep nesting", "[\"REQ\",\"s\"," + "[".repeat(3000) + "]".repeat(3000) + "]"),
                Arguments.of(
                        "thousands of keys",
                        "[\"REQ\",\"s\",{\"artifact\":\"sync\","
                                + IntStream.range(0, 1000)
                                        .mapToObj(i -> "\"k" + i + "\":1")
                                        .collect(Collectors.joining(","))
                                + "}]"),
                Arguments.of(
                        "hundreds of channels",
                        "[\"REQ\",\"s\",{\"artifact\":\"sync\",\"#h\":["
                                + quotedList(300, i -> new UUID(0, i).toString()) + "]}]"),
                Arguments.of("duplicate keys", "[\"REQ\",\"s\",{\"artifact\":\"x\",\"artifact\":\"sync\"}]"),
                Arguments.of("unknown artifact mode", "[\"REQ\",\"s\",{\"artifact\":\"current\"}]"));
    }

    static Stream<Arguments> adminApiBodies() {
        String template = "{\"gate\":\"incremental\",\"value\":\"off\",\"reason\":\"MARK\"}";
        List<Arguments> rows = new ArrayList<>();
        for (Row row : generic("/api/flags", template)) {
            int status = row.body().length > ADMIN_MAX_BODY_BYTES ? 413 : 400;
            rows.add(Arguments.of(row.name(), row.body(), status));
        }
        rows.add(Arguments.of(
                "duplicate keys",
                utf8(template.replace("\"value\":\"off\"", "\"value\":\"off\",\"value\":\"on\"")),
                400));
        rows.add(Arguments.of("wrong type: value as an object", utf8(template.replace("\"off\"", "{\"x\":1}")), 400));
        rows.add(Arguments.of(
                "wrong type: gate as an array", utf8(template.replace("\"incremental\"", "[\"incremental\"]")), 400));
        rows.add(Arguments.of("huge number as the value", utf8(template.replace("\"off\"", "9".repeat(400))), 400));
        rows.add(Arguments.of("not an object", utf8("[" + template + "]"), 400));
        rows.add(Arguments.of(
                "malformed switch: force as maybe", utf8(template.replace("}", ",\"force\":\"maybe\"}")), 400));
        rows.add(Arguments.of("wrong type: force as an array", utf8(template.replace("}", ",\"force\":[true]}")), 400));
        return rows.stream();
    }

    static Stream<Arguments> adminTaskParameters() {
        return Stream.of(
                Arguments.of("unknown gate", "flag", Map.of("gate", "nope", "value", "on", "reason", "catalogue")),
                Arguments.of("no reason", "flag", Map.of("gate", "incremental", "value", "on")),
                Arguments.of(
                        "NUL in the reason",
                        "flag",
                        Map.of("gate", "incremental", "value", "off", "reason", "a\u0000b")),
                Arguments.of(
                        "wrong value",
                        "flag",
                        Map.of("gate", "incremental", "value", "9".repeat(400), "reason", "catalogue")),
                Arguments.of(
                        "NUL in a migration id", "record-migration", Map.of("id", "a\u0000b", "reason", "catalogue")),
                Arguments.of(
                        "rollback without confirm or dry-run",
                        "rollback-incremental",
                        Map.of("reason", "catalogue", "confirm", "maybe")));
    }

    static Stream<Arguments> oversizedHeaders() {
        return Stream.of(
                Arguments.of("oversized header on /events", "/events"),
                Arguments.of("oversized header on /query", "/query"));
    }

    private static Row row(String path, String name, String body) {
        return new Row(name, path, utf8(body), 0);
    }

    private static byte[] replaceMark(String template, byte[] replacement) {
        int at = template.indexOf(MARK);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(utf8(template.substring(0, at)));
        out.writeBytes(replacement);
        out.writeBytes(utf8(template.substring(at + MARK.length())));
        return out.toByteArray();
    }

    private static String quotedList(int count, java.util.function.IntFunction<String> value) {
        return IntStream.range(0, count)
                .mapToObj(i -> "\"" + value.apply(i) + "\"")
                .collect(Collectors.joining(","));
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
