package chat.buzz.relay.incremental;

import static chat.buzz.relay.testing.Nostr.tag;
import static org.assertj.core.api.Assertions.assertThat;

import chat.buzz.protocol.NostrKeys;
import chat.buzz.protocol.Tags;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.TestRelay;
import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.testing.ConfigOverride;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A channel of over a thousand artifacts made private and then open again with gate SCOPED_POLICY on
 * (PROTOCOL 4.4, 4.2): a non-member's delta arrives as many pages of at most the limit, removes every
 * artifact exactly once and then brings every one back exactly once, no page names an artifact twice,
 * nothing resets, the stamp does not move, and no cursor names an artifact the reader was not given.
 * The artifacts are signed writes: "could have held" reads their revisions.
 */
@IntegrationTest
class LargeChannelPolicyChangeTest {
    @RegisterExtension
    static final TestRelay RELAY = TestRelay.create(
            ConfigOverride.config("gates.incremental", "true"), ConfigOverride.config("gates.scopedPolicy", "true"));

    private static final int ARTIFACTS = 1_010;
    private static final int LIMIT = 100;

    private final Writer writer = new Writer(RELAY.client());
    private final NostrKeys owner = NostrKeys.generate();

    @Test
    void aThousandArtifactsLeaveAndComeBackExactlyOnceAcrossPages() {
        UUID channel = writer.channel(owner, "open");
        List<UUID> artifacts = writer.createMany(owner, channel, ARTIFACTS);
        Set<String> all = new HashSet<>();
        artifacts.forEach(d -> all.add(d.toString()));
        SyncingClient outsider = new SyncingClient(RELAY.client(), NostrKeys.generate(), List.of())
                .openingCursors(SealedCursors.of(RELAY));
        List<String> stamps = new ArrayList<>();
        outsider.inspector = body -> {
            stamps.add(body.get("policy").asText());
            assertThat(body.get("reset").asBoolean())
                    .as("a reset: %s", body.get("cursor"))
                    .isFalse();
            Set<String> named = new HashSet<>();
            body.get("entries")
                    .forEach(e -> assertThat(named.add(e.get("d").asText()))
                            .as("a page names %s twice", e.get("d"))
                            .isTrue());
        };
        List<List<JsonNode>> bootstrap = pages(outsider);
        assertThat(bootstrap).hasSizeGreaterThanOrEqualTo(ARTIFACTS / LIMIT);
        assertThat(outsider.store.keySet()).isEqualTo(all);
        String stamp = stamps.get(0);

        writer.editChannel(owner, channel, tag(Tags.VISIBILITY, "private"));
        List<List<JsonNode>> removed = pages(outsider);
        assertThat(removed).as("pages of the removal").hasSizeGreaterThanOrEqualTo(ARTIFACTS / LIMIT);
        assertThat(timesEach(removed, "remove:unavailable")).isEqualTo(once(all));
        assertThat(outsider.store).isEmpty();

        writer.editChannel(owner, channel, tag(Tags.VISIBILITY, "open"));
        List<List<JsonNode>> back = pages(outsider);
        assertThat(back).as("pages of the return").hasSizeGreaterThanOrEqualTo(ARTIFACTS / LIMIT);
        assertThat(timesEach(back, "upsert")).isEqualTo(once(all));
        Map<String, String> heads = new HashMap<>();
        artifacts.forEach(d -> heads.put(d.toString(), writer.heads.get(d)));
        assertThat(outsider.heads()).isEqualTo(heads);

        assertThat(stamps).as("the policy stamp of every answer").containsOnly(stamp);
        assertThat(outsider.resets).isZero();
    }

    /** One session, page by page, with the limit. */
    private static List<List<JsonNode>> pages(SyncingClient client) {
        List<List<JsonNode>> pages = new ArrayList<>();
        do {
            List<JsonNode> page = client.page(LIMIT);
            assertThat(page).hasSizeLessThanOrEqualTo(LIMIT);
            pages.add(page);
        } while (client.midSession);
        return pages;
    }

    /** How often each artifact was named with {@code op} across the pages; any other entry fails. */
    private static Map<String, Integer> timesEach(List<List<JsonNode>> pages, String op) {
        Map<String, Integer> times = new HashMap<>();
        for (List<JsonNode> page : pages) {
            for (JsonNode entry : page) {
                String what = entry.get("op").asText()
                        + (entry.has("reason") ? ":" + entry.get("reason").asText() : "");
                assertThat(what).as("%s", entry).isEqualTo(op);
                times.merge(entry.get("d").asText(), 1, Integer::sum);
            }
        }
        return times;
    }

    private static Map<String, Integer> once(Set<String> ids) {
        Map<String, Integer> once = new HashMap<>();
        ids.forEach(d -> once.put(d, 1));
        return once;
    }
}
