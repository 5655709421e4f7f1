package chat.buzz.relay.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import chat.buzz.protocol.ErrorCodes;
import chat.buzz.protocol.FrameVerbs;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Wire words live in {@code protocol/} (docs/decisions.md, "Code structure"): the codes, the message
 * prefixes and the frame verbs are spelled once, in {@link ErrorCodes} and {@link FrameVerbs}, and the
 * relay, the client and the benchmarks use the constants, so a word cannot drift on one side only.
 * ArchUnit sees no string constants (javac inlines them), so this reads the main sources. Tests are not
 * scanned: a test that asserts the wire spells the literal on purpose, so that a changed constant fails
 * it instead of following along.
 *
 * <p>Not scanned: {@code Tags}, {@code Nip11} and {@code Kinds}. Their values are plain words ("d", "type",
 * "reason", "entries") that equally name SQL columns, bind parameters and other JSON fields, so a literal
 * cannot be told apart from a wire use by its text.
 */
class WireVocabularyTest {
    private static final List<Class<?>> VOCABULARY = List.of(ErrorCodes.class, FrameVerbs.class);

    private static final List<Path> MAIN_SOURCES = List.of(
            Path.of("src", "main", "java"),
            Path.of("..", "client", "src", "main", "java"),
            Path.of("..", "benchmark", "src", "main", "java"));

    /** Literals that spell a wire word but are not the wire: file name and literal, with the reason. */
    private static final Map<String, String> NOT_THE_WIRE = Map.of(
            "RedisReplayGuard.java OK", "Redis's reply to SET, not the NIP-01 OK",
            "WriteCommand.java EVENT", "the placeholder picocli shows for --prev's value, an event id");

    private final WireLiterals scanner = new WireLiterals(VOCABULARY);

    @Test
    void mainSourcesSpellNoWireWord() {
        List<String> findings = MAIN_SOURCES.stream()
                .flatMap(root -> scanner.scanTree(root).stream())
                .filter(finding ->
                        !NOT_THE_WIRE.containsKey(Path.of(finding.file()).getFileName() + " " + finding.literal()))
                .map(WireLiterals.Finding::toString)
                .toList();
        assertThat(findings)
                .as("wire words spelled outside protocol/; use the constants of ErrorCodes or FrameVerbs")
                .isEmpty();
    }

    @Test
    void everyVocabularyClassIsRead() {
        assertThat(scanner.prefixes()).contains("invalid:", "auth-required:", "error:", "sync_reset:", "NIP-98:");
        assertThat(scanner.words())
                .contains("EVENT", "EOSE", "CLOSED", "NOTICE", "AUTH", "OK", "REQ", "CLOSE")
                .contains("incremental_invalid_cursor", "sync_unavailable", "unknown community");
    }

    @Test
    void theScannerNamesFileAndLineOfEachSpelledWord() {
        String source = """
                class Sample {
                    // "invalid: " in a comment is prose
                    /* so is ["EOSE", here */
                    String a = ErrorCodes.INVALID_PREFIX + "no filter";
                    String b = "invalid: no filter";
                    String c = "[\\"EOSE\\"," + id + "]";
                    String d = "sync_reset: policy changed";
                    String e = \"""
                        {"error": "incremental_capacity"}
                        \""";
                    char f = '"';
                    String g = "the word EVENT in a sentence";
                    String h = "CLOSED";
                }
                """;
        assertThat(scanner.scan("Sample.java", source).stream().map(WireLiterals.Finding::toString))
                .containsExactly(
                        "Sample.java:5: \"invalid: no filter\" spells invalid:",
                        "Sample.java:6: \"[\"EOSE\",\" spells EOSE",
                        "Sample.java:7: \"sync_reset: policy changed\" spells sync_reset:",
                        "Sample.java:8: \"{\"error\": \"incremental_capacity\"}\" spells incremental_capacity",
                        "Sample.java:13: \"CLOSED\" spells CLOSED");
    }
}
