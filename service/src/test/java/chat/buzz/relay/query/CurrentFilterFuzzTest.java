package chat.buzz.relay.query;

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

/** Seeded fuzzing of the "current" filter parser: a filter parses or is a 400 QueryRejection, nothing else. */
class CurrentFilterFuzzTest {
    private static final List<String> KEYS = List.of(
            "artifact",
            "limit",
            "offset",
            Tags.FILTER_CHANNEL,
            Tags.FILTER_ARTIFACT_ID,
            "#t",
            "#title",
            "#",
            "#\u0000",
            "#" + "a".repeat(70),
            "since",
            "kinds");

    @Property(tries = 4000, seed = "20261211")
    void aFilterParsesOrIsRefusedWithA400(@ForAll("filters") ObjectNode filter) {
        try {
            CurrentFilter parsed = CurrentFilter.parse(filter);
            assertThat(parsed.limit()).isBetween(1, 1000);
            assertThat(parsed.offset()).isBetween(0, 10_000);
        } catch (QueryRejection rejection) {
            assertThat(rejection.response().getStatus()).isEqualTo(400);
        }
    }

    @Provide
    Arbitrary<ObjectNode> filters() {
        return Arbitraries.randomValue(random -> RandomJson.object(random, KEYS));
    }
}
