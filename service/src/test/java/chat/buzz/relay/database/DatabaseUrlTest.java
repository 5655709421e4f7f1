package chat.buzz.relay.database;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class DatabaseUrlTest {
    @Test
    void aJdbcUrlIsKeptAsWritten() {
        assertThat(DatabaseUrl.parse("jdbc:postgresql://db:5432/buzz?sslmode=require"))
                .isEqualTo(new DatabaseUrl("jdbc:postgresql://db:5432/buzz?sslmode=require", null, null));
    }

    @Test
    void aPostgresUrlBecomesJdbcWithItsUserAndDecodedPassword() {
        assertThat(DatabaseUrl.parse("postgres://buzz:p%40ss+w%3Ard@db.example:6543/relay?sslmode=require"))
                .isEqualTo(new DatabaseUrl(
                        "jdbc:postgresql://db.example:6543/relay?sslmode=require", "buzz", "p@ss+w:rd"));
        assertThat(DatabaseUrl.parse("postgresql://db.example/relay"))
                .isEqualTo(new DatabaseUrl("jdbc:postgresql://db.example/relay", null, null));
    }

    @Test
    void aPlaceholderLeftByAnUnsetVariableIsCalledUnset() {
        assertThatThrownBy(() -> DatabaseUrl.parse("${BUZZ_DATABASE_URL}"))
                .hasMessageStartingWith("BUZZ_DATABASE_URL (database.url) is not set");
        assertThatThrownBy(() -> DatabaseUrl.parse(" "))
                .hasMessageStartingWith("BUZZ_DATABASE_URL (database.url) is not set");
    }

    @Test
    void aUrlWithoutHostIsRefused() {
        assertThatThrownBy(() -> DatabaseUrl.parse("postgres:///relay")).hasMessageContaining("names no host");
    }
}
