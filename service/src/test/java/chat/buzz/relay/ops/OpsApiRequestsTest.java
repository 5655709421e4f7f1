package chat.buzz.relay.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import chat.buzz.relay.gate.FlagAction;
import chat.buzz.relay.gate.Gate;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The admin API's bodies as typed records: switches as booleans or as the strings operators type, and
 * every bad value its own 400 with the code the tasks give for it.
 */
class OpsApiRequestsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static <T> T bind(String body, Class<T> type) throws Exception {
        return OpsApiRequests.bind(JSON.readTree(body), type);
    }

    private static OpsRefusal refusal(String body, Class<?> type) {
        OpsRefusal refusal = catchThrowableOfType(() -> bind(body, type), OpsRefusal.class);
        assertThat(refusal).as("refused: %s", body).isNotNull();
        assertThat(refusal.status()).isEqualTo(400);
        return refusal;
    }

    @Test
    void aFlagChangeIsTyped() throws Exception {
        OpsApiRequests.FlagChange change = bind(
                "{\"gate\":\"incremental\",\"value\":\"on\",\"reason\":\"go\",\"force\":true,\"extra\":1}",
                OpsApiRequests.FlagChange.class);
        assertThat(change).isEqualTo(new OpsApiRequests.FlagChange(Gate.INCREMENTAL, FlagAction.ON, "go", true));
        assertThat(bind(
                        "{\"gate\":\"artifacts.sync\",\"value\":\"clear\",\"reason\":\"r\"}",
                        OpsApiRequests.FlagChange.class))
                .isEqualTo(new OpsApiRequests.FlagChange(Gate.SYNC, FlagAction.CLEAR, "r", false));
    }

    @ParameterizedTest
    @CsvSource({
        "true,true",
        "false,false",
        "'\"yes\"',true",
        "'\"ON\"',true",
        "'\"1\"',true",
        "1,true",
        "'\"no\"',false",
        "'\"off\"',false",
        "0,false",
        "'\"\"',false",
        "null,false"
    })
    void aSwitchIsABooleanOrTheStringOperatorsType(String json, boolean expected) throws Exception {
        assertThat(bind(
                        "{\"reason\":\"r\",\"dryRun\":" + json + ",\"force\":" + json + "}",
                        OpsApiRequests.Rollback.class))
                .isEqualTo(new OpsApiRequests.Rollback(expected, false, "r", expected));
    }

    @Test
    void theRollbacksConfirmationIsYesOrNothing() throws Exception {
        assertThat(bind("{\"confirm\":\" YES \",\"reason\":\"r\"}", OpsApiRequests.Rollback.class)
                        .confirm())
                .isTrue();
        assertThat(bind("{\"reason\":\"r\"}", OpsApiRequests.Rollback.class).confirm())
                .isFalse();
        assertThat(refusal("{\"confirm\":\"maybe\"}", OpsApiRequests.Rollback.class)
                        .code())
                .isEqualTo("invalid_confirm");
        assertThat(refusal("{\"confirm\":true}", OpsApiRequests.Rollback.class).code())
                .isEqualTo("invalid_confirm");
    }

    @Test
    void aMalformedSwitchIsRefusedUnderItsTaskName() {
        OpsRefusal dryRun = refusal("{\"dryRun\":\"maybe\"}", OpsApiRequests.Rollback.class);
        assertThat(dryRun.code()).isEqualTo("invalid_dry_run");
        assertThat(dryRun.getMessage()).isEqualTo("dry-run must be true or false");
        OpsRefusal force = refusal(
                "{\"gate\":\"sync\",\"value\":\"on\",\"reason\":\"r\",\"force\":\"2\"}",
                OpsApiRequests.FlagChange.class);
        assertThat(force.code()).isEqualTo("invalid_force");
        assertThat(force.getMessage()).isEqualTo("force must be true or false");
    }

    @Test
    void anArrayOrObjectIsRefusedForEveryField() {
        OpsRefusal gate = refusal("{\"gate\":[\"sync\"],\"value\":\"on\"}", OpsApiRequests.FlagChange.class);
        assertThat(gate.code()).isEqualTo("invalid_gate");
        assertThat(gate.getMessage()).isEqualTo("gate must be a string or boolean");
        assertThat(refusal("{\"id\":\"x\",\"reason\":{\"a\":1}}", OpsApiRequests.MigrationRecord.class)
                        .code())
                .isEqualTo("invalid_reason");
        assertThat(refusal("{\"dryRun\":[true]}", OpsApiRequests.Rollback.class).code())
                .isEqualTo("invalid_dryRun");
    }

    @Test
    void aGateAndAValueAreRequired() {
        assertThat(refusal("{\"value\":\"on\",\"reason\":\"r\"}", OpsApiRequests.FlagChange.class)
                        .code())
                .isEqualTo("unknown_gate");
        assertThat(refusal("{\"gate\":null,\"value\":\"on\"}", OpsApiRequests.FlagChange.class)
                        .code())
                .isEqualTo("unknown_gate");
        assertThat(refusal("{\"gate\":\"warp\",\"value\":\"on\"}", OpsApiRequests.FlagChange.class)
                        .getMessage())
                .isEqualTo("gate must be one of [incremental, sync, scoped_policy]");
        assertThat(refusal("{\"gate\":\"sync\",\"reason\":\"r\"}", OpsApiRequests.FlagChange.class)
                        .code())
                .isEqualTo("invalid_value");
        assertThat(refusal("{\"gate\":\"sync\",\"value\":\"maybe\"}", OpsApiRequests.FlagChange.class)
                        .code())
                .isEqualTo("invalid_value");
    }

    @Test
    void scalarsAreReadAsText() throws Exception {
        assertThat(bind("{\"id\":5,\"reason\":true}", OpsApiRequests.MigrationRecord.class))
                .isEqualTo(new OpsApiRequests.MigrationRecord("5", "true"));
    }
}
