package chat.buzz.relay.incremental;

import static org.assertj.core.api.Assertions.assertThat;

import chat.buzz.protocol.Tags;
import chat.buzz.relay.testing.RandomJson;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** Seeded fuzzing of the incremental request parser: a request parses or is a 4xx of PROTOCOL 4.5, nothing else. */
class IncrementalRequestFuzzTest {
    private static final List<String> KEYS = List.of(
            "artifact", "since", "limit", Tags.FILTER_CHANNEL, Tags.FILTER_ARTIFACT_ID, "digest", "offset", "#t");

    @Property(tries = 4000, seed = "20261212")
    void aRequestParsesOrIsRefusedWithAnIncrementalCode(@ForAll("requests") ObjectNode request) {
        try {
            IncrementalRequest.parse(request);
        } catch (IncrementalError error) {
            assertThat(error.response().getStatus()).isBetween(400, 499);
            assertThat(error.code()).startsWith("incremental_");
        }
    }

    @Provide
    Arbitrary<ObjectNode> requests() {
        return Arbitraries.randomValue(random -> RandomJson.object(random, KEYS));
    }
}
