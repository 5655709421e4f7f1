package chat.buzz.client.cli;

import static org.assertj.core.api.Assertions.assertThat;

import chat.buzz.client.Channel;
import chat.buzz.client.Entry;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What follow prints for each event, as text and as JSON lines. */
class FollowOutputTest {
    private static final String H = "6f1c2a3b-4d5e-4f60-8a71-92b3c4d5e6f7";
    private static final String D = "0b9c3f5e-4d1e-4bde-8a57-8d2b1c1f6e00";
    private static final String HEAD = "a".repeat(64);
    private static final List<Channel> PLANS =
            List.of(new Channel(H, "plans", true, false, Optional.empty(), Map.of(), List.of()));

    private static String print(boolean json, java.util.function.Consumer<FollowOutput> what) {
        StringWriter text = new StringWriter();
        what.accept(new FollowOutput(new PrintWriter(text, true), json));
        return text.toString();
    }

    private static void everything(FollowOutput output) {
        output.following("live over WebSocket sync");
        output.changed(new Entry(true, D, H, HEAD, "{}", null), PLANS);
        output.disconnected("WebSocket connection lost: closed", Duration.ofMillis(1500));
        output.changed(new Entry(false, D, H, null, null, "gone while away"), List.of());
        output.reconnected("live over WebSocket sync", Duration.ofSeconds(4), 1);
    }

    @Test
    void textNamesTheChannelAndSaysWhenTheRelayWasLostAndFound() {
        assertThat(print(false, FollowOutputTest::everything))
                .isEqualTo("following live over WebSocket sync; Ctrl-C to stop\n"
                        + "upsert " + D + " in " + H + " head " + HEAD + "  #plans\n"
                        + "disconnected: WebSocket connection lost: closed; reconnecting in 1.5 s\n"
                        + "remove " + D + " (gone while away)\n"
                        + "reconnected after 4.0 s; caught up on 1 change made meanwhile; following live over"
                        + " WebSocket sync\n");
    }

    @Test
    void jsonIsOneObjectPerLineWithAnEventKey() throws Exception {
        String[] lines = print(true, FollowOutputTest::everything).split("\n");
        ObjectMapper json = new ObjectMapper();
        assertThat(lines).hasSize(5);
        JsonNode upsert = json.readTree(lines[1]);
        assertThat(upsert.toString())
                .isEqualTo("{\"event\":\"upsert\",\"id\":\"" + D + "\",\"channel\":\"" + H
                        + "\",\"channel_name\":\"plans\",\"head\":\"" + HEAD + "\"}");
        assertThat(json.readTree(lines[0]).path("event").asText()).isEqualTo("following");
        assertThat(json.readTree(lines[2]).path("retry_in_ms").asLong()).isEqualTo(1500);
        assertThat(json.readTree(lines[3]).path("reason").asText()).isEqualTo("gone while away");
        assertThat(json.readTree(lines[3]).path("channel_name").isNull()).isTrue();
        JsonNode reconnected = json.readTree(lines[4]);
        assertThat(reconnected.path("event").asText()).isEqualTo("reconnected");
        assertThat(reconnected.path("caught_up").asInt()).isEqualTo(1);
        assertThat(reconnected.path("away_ms").asLong()).isEqualTo(4000);
    }

    @Test
    void aChannelChangedOrGoneWhileFollowingIsOneLineWithItsName() {
        Channel renamed = new Channel(
                H, "plans 2", true, false, Optional.empty(), Map.of(), List.of("a".repeat(64), "b".repeat(64)));
        java.util.function.Consumer<FollowOutput> both = output -> {
            output.channelChanged(renamed);
            output.channelGone(H);
        };
        assertThat(print(false, both))
                .isEqualTo("channel " + H + "  #plans 2 (private, 2 members)\n" + "channel " + H
                        + " is no longer visible to this key\n");
        String[] lines = print(true, both).split("\n");
        assertThat(lines[0])
                .isEqualTo("{\"event\":\"channel\",\"channel\":\"" + H
                        + "\",\"channel_name\":\"plans 2\",\"visibility\":\"private\",\"members\":2}");
        assertThat(lines[1]).isEqualTo("{\"event\":\"channel_gone\",\"channel\":\"" + H + "\"}");
    }
}
