package chat.buzz.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The one place a test spells the wire numbers out: clients outside this repository depend on them. */
class KindsTest {
    @Test
    void kindsAreTheContractsNumbers() {
        assertThat(new int[] {
                    Kinds.DELETION,
                    Kinds.ADD_MEMBER,
                    Kinds.REMOVE_MEMBER,
                    Kinds.EDIT_CHANNEL,
                    Kinds.REDACTION,
                    Kinds.CREATE_CHANNEL,
                    Kinds.DELETE_CHANNEL,
                    Kinds.JOIN,
                    Kinds.LEAVE,
                    Kinds.RELAY_AUTH,
                    Kinds.HTTP_AUTH,
                    Kinds.ARTIFACT_REVISION,
                    Kinds.REMOVAL_MARKER,
                    Kinds.CHANNEL_METADATA,
                    Kinds.CHANNEL_ADMINS,
                    Kinds.CHANNEL_MEMBERS
                })
                .containsExactly(
                        5, 9000, 9001, 9002, 9005, 9007, 9008, 9021, 9022, 22242, 27235, 45010, 45011, 39000, 39001,
                        39002);
    }
}
