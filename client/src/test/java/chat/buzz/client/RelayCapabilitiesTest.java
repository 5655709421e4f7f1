package chat.buzz.client;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RelayCapabilitiesTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** The page size a delta read asks for follows the relay's max_limit, within the protocol's 1..1000. */
    @ParameterizedTest(name = "max_limit {0} -> limit {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "1000 | 1000",
                "250 | 250",
                "1 | 1",
                "5000 | 1000",
                "0 | 100",
                "-3 | 100",
                "12.5 | 100",
                "'\"1000\"' | 100",
                "null | 100",
            })
    void pageLimitFollowsMaxLimit(String maxLimit, int expected) throws Exception {
        RelayCapabilities capabilities = RelayCapabilities.from(
                JSON.readTree("{\"artifacts\":{\"incremental\":{\"page_size\":100,\"max_limit\":" + maxLimit + "}}}"));
        assertThat(capabilities.pageLimit()).isEqualTo(expected);
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {"{}", "'{\"artifacts\":{}}'", "'{\"artifacts\":{\"incremental\":{\"page_size\":100}}}'"})
    void aRelayThatNamesNoMaxLimitGetsTheDefaultPageSize(String information) throws Exception {
        assertThat(RelayCapabilities.from(JSON.readTree(information)).pageLimit())
                .isEqualTo(100);
    }
}
