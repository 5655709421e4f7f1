package chat.buzz.client.cli;

import chat.buzz.client.Channel;
import chat.buzz.client.Entry;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;

/**
 * What {@code follow} prints on stdout, one line per event: text for a person, or with {@code --json}
 * one JSON object per line with an {@code event} key (docs/client.md lists them) for a script.
 */
final class FollowOutput {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final PrintWriter out;
    private final boolean json;

    FollowOutput(PrintWriter out, boolean json) {
        this.out = out;
        this.json = json;
    }

    void following(String how) {
        print(event("following").put("how", how), "following " + how + "; Ctrl-C to stop");
    }

    void changed(Entry entry, List<Channel> channels) {
        String name = entry.h() == null
                ? null
                : channels.stream()
                        .filter(c -> c.id().equals(entry.h()))
                        .map(Channel::name)
                        .findFirst()
                        .orElse(null);
        String named = name == null ? "" : "  #" + name;
        if (entry.upsert()) {
            print(
                    event("upsert")
                            .put("id", entry.d())
                            .put("channel", entry.h())
                            .put("channel_name", name)
                            .put("head", entry.headId()),
                    "upsert " + entry.d() + " in " + entry.h() + " head " + entry.headId() + named);
        } else {
            print(
                    event("remove")
                            .put("id", entry.d())
                            .put("channel", entry.h())
                            .put("channel_name", name)
                            .put("reason", entry.reason()),
                    "remove " + entry.d() + " (" + entry.reason() + ")" + named);
        }
    }

    void channelChanged(Channel channel) {
        print(
                event("channel")
                        .put("channel", channel.id())
                        .put("channel_name", channel.name())
                        .put("visibility", channel.visibility())
                        .put("members", channel.members().size()),
                "channel " + channel.id() + "  #" + channel.name() + " (" + channel.visibility() + ", "
                        + channel.members().size() + (channel.members().size() == 1 ? " member)" : " members)"));
    }

    void channelGone(String id) {
        print(event("channel_gone").put("channel", id), "channel " + id + " is no longer visible to this key");
    }

    void disconnected(String reason, Duration retryIn) {
        print(
                event("disconnected").put("reason", reason).put("retry_in_ms", retryIn.toMillis()),
                "disconnected: " + reason + "; reconnecting in " + seconds(retryIn));
    }

    void reconnected(String how, Duration away, int caughtUp) {
        print(
                event("reconnected")
                        .put("how", how)
                        .put("away_ms", away.toMillis())
                        .put("caught_up", caughtUp),
                "reconnected after " + seconds(away) + "; caught up on " + caughtUp
                        + (caughtUp == 1 ? " change" : " changes") + " made meanwhile; following " + how);
    }

    private static ObjectNode event(String name) {
        return JSON.createObjectNode().put("event", name);
    }

    private void print(ObjectNode asJson, String asText) {
        out.println(json ? asJson.toString() : asText);
        out.flush();
    }

    private static String seconds(Duration duration) {
        return String.format(java.util.Locale.ROOT, "%.1f s", duration.toMillis() / 1000.0);
    }
}
