package chat.buzz.relay.database;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.PreparedStatement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class PositionalSqlTest {
    @Test
    void eachNamedParameterBecomesAPositionInOrderRepeatsIncluded() {
        PositionalSql statement = PositionalSql.of(
                "SELECT 1 FROM t WHERE a = :reader AND b = ANY (CAST(:ids AS uuid[])) AND c = :reader LIMIT :limit");

        assertThat(statement.sql())
                .isEqualTo("SELECT 1 FROM t WHERE a = ? AND b = ANY (CAST(? AS uuid[])) AND c = ? LIMIT ?");
        assertThat(statement.names()).containsExactly("reader", "ids", "reader", "limit");
    }

    @Test
    void castsStringsAndCommentsAreNotParameters() {
        PositionalSql statement =
                PositionalSql.of("/* X.y */ SELECT x::text, 'a:b' FROM t WHERE y = :y AND z ->> 'k' = :z");

        assertThat(statement.sql()).isEqualTo("/* X.y */ SELECT x::text, 'a:b' FROM t WHERE y = ? AND z ->> 'k' = ?");
        assertThat(statement.names()).containsExactly("y", "z");
    }

    @Test
    void bindingVisitsEveryPositionWithItsName() throws Exception {
        PositionalSql statement = PositionalSql.of("SELECT :a, :b, :a");
        List<String> visited = new ArrayList<>();

        statement
                .binding((bound, position, name) -> visited.add(position + "=" + name))
                .bind((PreparedStatement) null);

        assertThat(visited).containsExactly("1=a", "2=b", "3=a");
    }
}
