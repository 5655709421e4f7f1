package chat.buzz.relay.testing;

import static org.assertj.core.api.Assertions.assertThat;

import chat.buzz.protocol.NostrKeys;
import chat.buzz.relay.testing.RelayClient.Reply;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * Reads channel metadata (PROTOCOL 4.6) at a quiet point, the way a NIP-29 client lists channels: once broad,
 * once with {@code #d} naming every channel of the model, and has the {@link LeakOracle} judge both answers.
 */
public final class ChannelMetadataProbe {
    private static final String KINDS = "\"kinds\":[39000,39001,39002]";
    private static final int MAX_NAMED = 100;

    private final Model model;
    private final LeakOracle oracle;
    private int reads;

    public ChannelMetadataProbe(Model model, LeakOracle oracle) {
        this.model = model;
        this.oracle = oracle;
    }

    /** Fails with the story when either answer to {@code reader} is not exactly what the model says. */
    public void check(RelayClient relay, NostrKeys reader, String label, Supplier<String> context) {
        Set<UUID> named =
                model.channels.keySet().stream().limit(MAX_NAMED).collect(Collectors.toCollection(LinkedHashSet::new));
        String ids = named.stream().map(id -> "\"" + id + "\"").collect(Collectors.joining(","));
        List<String> problems =
                oracle.checkChannelMetadata(reader.publicKeyHex(), read(relay, reader, "[{" + KINDS + "}]"), null);
        problems.addAll(oracle.checkChannelMetadata(
                reader.publicKeyHex(), read(relay, reader, "[{" + KINDS + ",\"#d\":[" + ids + "]}]"), named));
        assertThat(problems)
                .as("%s: channel metadata read by %s", context.get(), label)
                .isEmpty();
    }

    /** How many metadata reads were judged, for the line each run prints. */
    public int reads() {
        return reads;
    }

    private com.fasterxml.jackson.databind.JsonNode read(RelayClient relay, NostrKeys reader, String filter) {
        Reply reply = relay.query(reader, filter);
        assertThat(reply.status())
                .as("channel metadata read %s: %s", filter, reply)
                .isEqualTo(200);
        reads++;
        return reply.json();
    }
}
