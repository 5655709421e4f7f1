package chat.buzz.relay.database;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class SqlTest {
    @Test
    void fillsEveryPlaceholderAndLeavesOperatorsAndParametersAlone() {
        String filled = Sql.fill(
                "SELECT <column> FROM t WHERE a <> :a AND <condition> AND <column> IS NOT NULL",
                "column",
                "t.x",
                "condition",
                "t.y < 3 AND t.z > 1");

        assertThat(filled).isEqualTo("SELECT t.x FROM t WHERE a <> :a AND t.y < 3 AND t.z > 1 AND t.x IS NOT NULL");
    }

    @Test
    void doesNotSearchAFragmentAgain() {
        assertThat(Sql.fill("<outer> AND <inner>", Map.of("outer", "<inner>", "inner", "$1 AND \\d")))
                .isEqualTo("<inner> AND $1 AND \\d");
    }

    @Test
    void aPlaceholderWithoutAFragmentFails() {
        assertThatThrownBy(() -> Sql.fill("SELECT 1 WHERE <missing>", "other", "true"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("<missing>");
    }

    @Test
    void aNameWithoutItsFragmentOrGivenTwiceFails() {
        assertThatThrownBy(() -> Sql.fill("<a>", "a")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Sql.fill("<a>", "a", "1", "a", "2")).isInstanceOf(IllegalArgumentException.class);
    }
}
