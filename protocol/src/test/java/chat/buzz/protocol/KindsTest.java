package chat.buzz.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The one place a test spells the wire numbers out: clients outside this repository depend on them. */
class KindsTest {
    @Test
    void kindsAreTheContractsNumbers() {
        assertThat(Kinds.DELETION).isEqualTo(5);
        assertThat(Kinds.ADD_MEMBER).isEqualTo(9000);
        assertThat(Kinds.REMOVE_MEMBER).isEqualTo(9001);
        assertThat(Kinds.EDIT_CHANNEL).isEqualTo(9002);
        assertThat(Kinds.REDACTION).isEqualTo(9005);
        assertThat(Kinds.CREATE_CHANNEL).isEqualTo(9007);
        assertThat(Kinds.DELETE_CHANNEL).isEqualTo(9008);
        assertThat(Kinds.JOIN).isEqualTo(9021);
        assertThat(Kinds.LEAVE).isEqualTo(9022);
        assertThat(Kinds.RELAY_AUTH).isEqualTo(22242);
        assertThat(Kinds.HTTP_AUTH).isEqualTo(27235);
        assertThat(Kinds.ARTIFACT_REVISION).isEqualTo(45010);
        assertThat(Kinds.REMOVAL_MARKER).isEqualTo(45011);
    }
}
