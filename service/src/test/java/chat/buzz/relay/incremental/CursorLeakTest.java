package chat.buzz.relay.incremental;

import static org.assertj.core.api.Assertions.assertThat;

import chat.buzz.protocol.NostrKeys;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.TestRelay;
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
 * An outsider (a key with no memberships) pages through a community one entry at a time while
 * artifacts of a private and of an unlisted channel change. Every cursor it is given, opened with the
 * relay's own key, must name none of those artifacts; and a cursor's length must not tell a reader
 * who sees little from one who sees everything.
 */
@IntegrationTest
class CursorLeakTest {
    @RegisterExtension
    static final TestRelay RELAY = TestRelay.create(ConfigOverride.config("gates.incremental", "true"));

    private final Writer writer = new Writer(RELAY.client());
    private final NostrKeys owner = NostrKeys.generate();
    private final NostrKeys outsider = NostrKeys.generate();
    private final SealedCursors cursors = SealedCursors.of(RELAY);

    @Test
    void noCursorGivenToAnOutsiderNamesAnArtifactItCannotRead() {
        UUID open = writer.channel(owner, "open");
        UUID hidden = writer.channel(owner, "private");
        UUID unlisted = writer.channel(owner, "open", List.of("unlisted", "true"));
        List<UUID> readable = new ArrayList<>(writer.createMany(owner, open, 3));
        List<UUID> unreadable = new ArrayList<>(writer.createMany(owner, hidden, 6));
        unreadable.addAll(writer.createMany(owner, unlisted, 6));
        Set<String> unreadableIds = new HashSet<>();
        unreadable.forEach(d -> unreadableIds.add(d.toString()));

        SyncingClient reader = new SyncingClient(RELAY.client(), outsider, List.of());
        List<String> seen = new ArrayList<>();
        reader.inspector = body -> {
            if (body.has("cursor")) {
                seen.add(body.get("cursor").asText());
            }
        };
        reader.session(1);
        for (int round = 0; round < 4; round++) {
            // Changes the outsider must hear nothing of, around one it may hear of, so that delta pages
            // of one entry end on candidates it cannot read.
            for (UUID d : unreadable.subList(round * 3, round * 3 + 3)) {
                writer.edit(owner, d, "hidden change " + round);
            }
            writer.edit(owner, readable.get(round % readable.size()), "open change " + round);
            for (UUID d : unreadable.subList((round * 3 + 6) % 12, (round * 3 + 6) % 12 + 3)) {
                writer.edit(owner, d, "late hidden change " + round);
            }
            reader.session(1);
        }

        assertThat(reader.heads().keySet())
                .containsExactlyInAnyOrderElementsOf(
                        readable.stream().map(UUID::toString).toList());
        assertThat(seen).hasSizeGreaterThan(8);
        for (String cursor : seen) {
            assertThat(cursors.artifactIds(cursor))
                    .as("ids inside the cursor %s", cursors.open(cursor))
                    .doesNotContainAnyElementsOf(unreadableIds);
        }
    }

    /**
     * A cursor's length follows from its judged steps: a bootstrap page carries one, a delta page the
     * previous session's and its own. A reader who sees everything and one who sees nothing get cursors
     * of the same lengths, however many hidden writes happened in between.
     */
    @Test
    void aCursorIsAsLongForAReaderWhoSeesNothingAsForOneWhoSeesEverything() {
        UUID hidden = writer.channel(owner, "private");
        writer.createMany(owner, hidden, 5);
        Map<NostrKeys, Set<Integer>> lengths = new HashMap<>();
        for (NostrKeys reader : List.of(owner, outsider)) {
            SyncingClient client = new SyncingClient(RELAY.client(), reader, List.of());
            client.inspector = body -> {
                if (body.has("cursor")) {
                    lengths.computeIfAbsent(reader, r -> new HashSet<>())
                            .add(body.get("cursor").asText().length());
                }
            };
            client.session(2);
            writer.edit(owner, writer.create(owner, hidden), "a change while " + reader.publicKeyHex());
            client.session(2);
        }
        assertThat(lengths.get(owner)).hasSize(2).isEqualTo(lengths.get(outsider));
    }
}
