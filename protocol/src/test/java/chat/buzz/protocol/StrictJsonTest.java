package chat.buzz.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JacksonException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The shared reader's rules, at their edges: what passes just inside a limit fails just outside it. */
class StrictJsonTest {
    @Test
    void duplicateKeysAreRefusedAtAnyDepth() throws Exception {
        assertThatThrownBy(() -> StrictJson.read("{\"artifact\":\"x\",\"artifact\":\"sync\"}"))
                .isInstanceOf(JacksonException.class);
        assertThatThrownBy(() -> StrictJson.read("[\"REQ\",\"s\",{\"#h\":[],\"#h\":[]}]"))
                .isInstanceOf(JacksonException.class);
        assertThat(StrictJson.read("{\"a\":{\"k\":1},\"b\":{\"k\":2}}")
                        .get("b")
                        .get("k")
                        .asInt())
                .isEqualTo(2);
    }

    @Test
    void trailingTokensAreRefused() {
        assertThatThrownBy(() -> StrictJson.read("{\"a\":1} {\"a\":2}")).isInstanceOf(JacksonException.class);
        assertThatThrownBy(() -> StrictJson.read("[1]]")).isInstanceOf(JacksonException.class);
    }

    @Test
    void nestingDepthIsLimited() throws Exception {
        assertThat(StrictJson.read(nested(StrictJson.MAX_NESTING_DEPTH))).isNotNull();
        assertThatThrownBy(() -> StrictJson.read(nested(StrictJson.MAX_NESTING_DEPTH + 1)))
                .isInstanceOf(JacksonException.class);
        assertThatThrownBy(() -> StrictJson.read(nested(100_000))).isInstanceOf(JacksonException.class);
    }

    @Test
    void numberLengthIsLimited() throws Exception {
        assertThat(StrictJson.read("[" + "9".repeat(StrictJson.MAX_NUMBER_LENGTH) + "]")
                        .get(0)
                        .isIntegralNumber())
                .isTrue();
        assertThatThrownBy(() -> StrictJson.read("[" + "9".repeat(StrictJson.MAX_NUMBER_LENGTH + 1) + "]"))
                .isInstanceOf(JacksonException.class);
    }

    @Test
    void namesAndStringsAreLimited() throws Exception {
        String longName = "k".repeat(StrictJson.MAX_NAME_LENGTH + 1);
        assertThatThrownBy(() -> StrictJson.read("{\"" + longName + "\":1}")).isInstanceOf(JacksonException.class);
        String longString = "s".repeat(StrictJson.MAX_STRING_LENGTH + 1);
        assertThatThrownBy(() -> StrictJson.read("[\"" + longString + "\"]")).isInstanceOf(JacksonException.class);
        assertThat(StrictJson.read("[\"" + "s".repeat(StrictJson.MAX_STRING_LENGTH) + "\"]")
                        .get(0)
                        .textValue())
                .hasSize(StrictJson.MAX_STRING_LENGTH);
    }

    @Test
    void documentLengthIsLimitedForTextAndBytes() {
        String manySmallValues = "[" + "1,".repeat((int) StrictJson.MAX_DOCUMENT_LENGTH / 2) + "1]";
        assertThatThrownBy(() -> StrictJson.read(manySmallValues)).isInstanceOf(JacksonException.class);
        assertThatThrownBy(() -> StrictJson.read(manySmallValues.getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(JacksonException.class);
    }

    @Test
    void invalidUtf8BytesAreRefused() throws Exception {
        byte[] loneContinuation = {'[', '"', (byte) 0x80, '"', ']'};
        assertThatThrownBy(() -> StrictJson.read(loneContinuation)).isInstanceOf(JacksonException.class);
        // Jackson's byte reader alone reads this overlong form as "/".
        byte[] overlongSlash = {'[', '"', (byte) 0xC0, (byte) 0xAF, '"', ']'};
        assertThatThrownBy(() -> StrictJson.read(overlongSlash)).isInstanceOf(JacksonException.class);
        byte[] encodedSurrogate = {'[', '"', (byte) 0xED, (byte) 0xA0, (byte) 0x80, '"', ']'};
        assertThatThrownBy(() -> StrictJson.read(encodedSurrogate)).isInstanceOf(JacksonException.class);
        assertThat(StrictJson.read("[\"caf\u00e9 \ud83d\udc1d\"]".getBytes(StandardCharsets.UTF_8))
                        .get(0)
                        .textValue())
                .isEqualTo("caf\u00e9 \ud83d\udc1d");
    }

    @Test
    void unpairedSurrogatesAreFound() {
        assertThat(StrictJson.hasUnpairedSurrogate("a\ud800")).isTrue();
        assertThat(StrictJson.hasUnpairedSurrogate("\udc00a")).isTrue();
        assertThat(StrictJson.hasUnpairedSurrogate("\ud83d\udc1d")).isFalse();
        assertThat(StrictJson.hasUnpairedSurrogate("plain")).isFalse();
    }

    @Test
    void eventParsingUsesTheSameRules() {
        assertThatThrownBy(() -> Event.parse(nested(StrictJson.MAX_NESTING_DEPTH + 1)))
                .isInstanceOf(MalformedEventException.class);
        assertThatThrownBy(() -> Event.parse("{\"kind\":1,\"kind\":2}")).isInstanceOf(MalformedEventException.class);
    }

    private static String nested(int depth) {
        return "[".repeat(depth) + "]".repeat(depth);
    }
}
