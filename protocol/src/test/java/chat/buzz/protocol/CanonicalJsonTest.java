package chat.buzz.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Expected strings are written by hand: they are the reference, not a second implementation. */
class CanonicalJsonTest {
    private static final String PK = "79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798";

    private static String escaped(String s) {
        StringBuilder sb = new StringBuilder();
        CanonicalJson.appendString(sb, s);
        return sb.toString();
    }

    @Test
    void shortFormEscapes() {
        assertThat(escaped("\n")).isEqualTo("\"\\n\"");
        assertThat(escaped("\"")).isEqualTo("\"\\\"\"");
        assertThat(escaped("\\")).isEqualTo("\"\\\\\"");
        assertThat(escaped("\r")).isEqualTo("\"\\r\"");
        assertThat(escaped("\t")).isEqualTo("\"\\t\"");
        assertThat(escaped("\b")).isEqualTo("\"\\b\"");
        assertThat(escaped("\f")).isEqualTo("\"\\f\"");
    }

    @Test
    void otherControlCharactersUseLowercaseUnicodeEscapes() {
        assertThat(escaped("\u0000")).isEqualTo("\"\\u0000\"");
        assertThat(escaped("\u0001")).isEqualTo("\"\\u0001\"");
        assertThat(escaped("\u000b")).isEqualTo("\"\\u000b\"");
        assertThat(escaped("\u001f")).isEqualTo("\"\\u001f\"");
    }

    @ParameterizedTest
    @ValueSource(
            strings = {"\u007f", "/", "</script>", "héllo 🐝", "日本語", "\u2028\u2029", "'", "\u00a0", "\uffff", " "})
    void everythingElseIsVerbatim(String s) {
        assertThat(escaped(s)).isEqualTo("\"" + s + "\"");
    }

    @Test
    void payloadHasNoWhitespaceAndExactShape() {
        String payload = CanonicalJson.idPayload(
                PK, 1700000000L, 1, List.of(List.of("e", "abc"), List.of("p", "x", "wss://r/")), "hi");
        assertThat(payload)
                .isEqualTo("[0,\"" + PK + "\",1700000000,1,[[\"e\",\"abc\"],[\"p\",\"x\",\"wss://r/\"]],\"hi\"]");
    }

    @Test
    void payloadWithEmptyTagsAndEveryEscape() {
        String content = "a\nb\"c\\d\re\tf\bg\fh\u0000i\u001fj\u007fk/l héllo 🐝 日本";
        String payload = CanonicalJson.idPayload(PK, 0L, 65535, List.of(), content);
        assertThat(payload)
                .isEqualTo("[0,\"" + PK + "\",0,65535,[],"
                        + "\"a\\nb\\\"c\\\\d\\re\\tf\\bg\\fh\\u0000i\\u001fj\u007fk/l héllo 🐝 日本\"]");
    }

    @Test
    void tagValuesAreEscapedTheSameWay() {
        String payload = CanonicalJson.idPayload(PK, 5L, 7, List.of(List.of("t", "x\ny\u0002")), "");
        assertThat(payload).isEqualTo("[0,\"" + PK + "\",5,7,[[\"t\",\"x\\ny\\u0002\"]],\"\"]");
    }
}
