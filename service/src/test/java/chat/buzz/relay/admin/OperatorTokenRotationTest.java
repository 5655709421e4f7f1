package chat.buzz.relay.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The rotation docs/security.md gives for production.yml, whose only operator token is
 * BUZZ_ADMIN_TOKEN: the old value moves to BUZZ_ADMIN_TOKEN_PREVIOUS and both open the port as
 * "admin" until it is removed.
 */
class OperatorTokenRotationTest {
    private static final String OLD = "old-token-0123456789";
    private static final String NEW = "new-token-9876543210";

    @Test
    void duringARotationBothTokensAreTheAdminOperator() {
        OperatorTokens rotating = OperatorTokens.load(
                new AdminConfig(), Map.of("BUZZ_ADMIN_TOKEN", NEW, "BUZZ_ADMIN_TOKEN_PREVIOUS", OLD));
        assertThat(rotating.operatorFor(NEW)).contains("admin");
        assertThat(rotating.operatorFor(OLD)).contains("admin");
        assertThat(rotating.operatorFor("neither-token-0000000")).isEmpty();
    }

    @Test
    void onceThePreviousTokenIsRemovedItOpensNothing() {
        OperatorTokens rotated = OperatorTokens.load(new AdminConfig(), Map.of("BUZZ_ADMIN_TOKEN", NEW));
        assertThat(rotated.operatorFor(NEW)).contains("admin");
        assertThat(rotated.operatorFor(OLD)).isEmpty();
    }

    @Test
    void aShortPreviousTokenStopsTheStart() {
        assertThatThrownBy(() -> OperatorTokens.load(
                        new AdminConfig(), Map.of("BUZZ_ADMIN_TOKEN", NEW, "BUZZ_ADMIN_TOKEN_PREVIOUS", "short")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("BUZZ_ADMIN_TOKEN_PREVIOUS");
    }
}
