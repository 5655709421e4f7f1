package chat.buzz.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class EventParseTest {
    private static final String ID = "a".repeat(64);
    private static final String PK = "b".repeat(64);
    private static final String SIG = "c".repeat(128);

    /** A well-formed event with one field's raw JSON value replaced (or the field dropped when null). */
    private static String with(String field, String rawValue) {
        String[][] fields = {
            {"id", "\"" + ID + "\""},
            {"pubkey", "\"" + PK + "\""},
            {"created_at", "1700000000"},
            {"kind", "1"},
            {"tags", "[[\"e\",\"x\"]]"},
            {"content", "\"hi\""},
            {"sig", "\"" + SIG + "\""}
        };
        StringBuilder sb = new StringBuilder("{");
        for (String[] f : fields) {
            String value = f[0].equals(field) ? rawValue : f[1];
            if (value == null) {
                continue;
            }
            if (sb.length() > 1) {
                sb.append(',');
            }
            sb.append('"').append(f[0]).append("\":").append(value);
        }
        return sb.append('}').toString();
    }

    @Test
    void wellFormedEventParses() {
        Event e = Event.parse(with(null, null));
        assertThat(e).isEqualTo(new Event(ID, PK, 1700000000L, 1, List.of(List.of("e", "x")), "hi", SIG));
    }

    @Test
    void fromJsonAcceptsATree() throws Exception {
        Event e = Event.fromJson(new ObjectMapper().readTree(with("kind", "65535")));
        assertThat(e.kind()).isEqualTo(65535);
    }

    @Test
    void boundaryValuesParse() {
        assertThat(Event.parse(with("created_at", "0")).createdAt()).isZero();
        assertThat(Event.parse(with("created_at", "9223372036854775807")).createdAt())
                .isEqualTo(Long.MAX_VALUE);
        assertThat(Event.parse(with("kind", "0")).kind()).isZero();
        assertThat(Event.parse(with("tags", "[]")).tags()).isEmpty();
        assertThat(Event.parse(with("tags", "[[\"alt\"]]")).tags()).containsExactly(List.of("alt"));
    }

    @ParameterizedTest(name = "{0} = {1}")
    @CsvSource(
            delimiter = '|',
            nullValues = "MISSING",
            value = {
                "id         | MISSING                   | missing field: id",
                "id         | 5                         | id must be a string",
                "id         | null                      | id must be a string",
                "id         | '\"" + "abc" + "\"'       | id must be 64 lowercase hex characters",
                "pubkey     | MISSING                   | missing field: pubkey",
                "pubkey     | '[1]'                     | pubkey must be a string",
                "sig        | MISSING                   | missing field: sig",
                "sig        | true                      | sig must be a string",
                "sig        | '\"" + "c" + "\"'         | sig must be 128 lowercase hex characters",
                "created_at | MISSING                   | missing field: created_at",
                "created_at | '\"1700000000\"'          | created_at must be an integer",
                "created_at | 1.5                       | created_at must be an integer",
                "created_at | 1.0                       | created_at must be an integer",
                "created_at | 1e9                       | created_at must be an integer",
                "created_at | -1                        | created_at must not be negative",
                "created_at | 9223372036854775808       | created_at is out of range",
                "created_at | null                      | created_at must be an integer",
                "kind       | MISSING                   | missing field: kind",
                "kind       | '\"1\"'                   | kind must be an integer",
                "kind       | 1.0                       | kind must be an integer",
                "kind       | -1                        | kind must be between 0 and 65535",
                "kind       | 65536                     | kind must be between 0 and 65535",
                "kind       | 99999999999               | kind must be between 0 and 65535",
                "tags       | MISSING                   | missing field: tags",
                "tags       | '{}'                      | tags must be an array",
                "tags       | '\"e\"'                   | tags must be an array",
                "tags       | '[\"e\"]'                 | each tag must be an array",
                "tags       | '[[]]'                    | each tag must be non-empty",
                "tags       | '[[\"e\",1]]'             | tag element must be a string",
                "tags       | '[[\"e\",null]]'          | tag element must be a string",
                "tags       | '[[[\"e\"]]]'             | tag element must be a string",
                "content    | MISSING                   | missing field: content",
                "content    | 7                         | content must be a string",
                "content    | '{}'                      | content must be a string",
                "content    | '\"\\ud800\"'             | content contains an unpaired UTF-16 surrogate",
            })
    void rejectsMalformedField(String field, String rawValue, String message) {
        assertThatThrownBy(() -> Event.parse(with(field, rawValue)))
                .isInstanceOf(MalformedEventException.class)
                .hasMessage(message);
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {"id", "pubkey", "sig"})
    void rejectsUppercaseHex(String field) {
        String upper = "\"" + (field.equals("sig") ? "C".repeat(128) : "A".repeat(64)) + "\"";
        assertThatThrownBy(() -> Event.parse(with(field, upper)))
                .isInstanceOf(MalformedEventException.class)
                .hasMessageContaining(field + " must be")
                .hasMessageContaining("lowercase hex");
    }

    @Test
    void rejectsUnknownField() {
        String json = with(null, null).replace("{", "{\"extra\":1,");
        assertThatThrownBy(() -> Event.parse(json))
                .isInstanceOf(MalformedEventException.class)
                .hasMessage("unknown field: extra");
    }

    @Test
    void rejectsDuplicateField() {
        String json = with(null, null).replace("{", "{\"kind\":2,");
        assertThatThrownBy(() -> Event.parse(json))
                .isInstanceOf(MalformedEventException.class)
                .hasMessage("invalid JSON");
    }

    @Test
    void rejectsNonObjectsAndBrokenJson() {
        for (String json : List.of("[]", "\"x\"", "1", "null")) {
            assertThatThrownBy(() -> Event.parse(json))
                    .as(json)
                    .isInstanceOf(MalformedEventException.class)
                    .hasMessage("event must be a JSON object");
        }
        for (String json : List.of("", "{", "{\"id\":}", with(null, null) + " {}", "{'id':'x'}")) {
            assertThatThrownBy(() -> Event.parse(json)).as(json).isInstanceOf(MalformedEventException.class);
        }
        assertThatThrownBy(() -> Event.parse(null)).isInstanceOf(MalformedEventException.class);
    }
}
