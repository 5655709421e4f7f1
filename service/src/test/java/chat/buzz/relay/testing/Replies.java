package chat.buzz.relay.testing;

import static org.assertj.core.api.Assertions.assertThat;

import chat.buzz.relay.testing.RelayClient.Reply;

/** Assertions on POST /events answers: status, accepted flag and message prefix together. */
public final class Replies {
    private Replies() {}

    public static void accepted(Reply reply) {
        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        assertThat(reply.json().get("accepted").asBoolean())
                .as(reply.toString())
                .isTrue();
    }

    public static void rejected(Reply reply, int status, String messagePrefix) {
        assertThat(reply.status()).as(reply.toString()).isEqualTo(status);
        assertThat(reply.json().get("accepted").asBoolean())
                .as(reply.toString())
                .isFalse();
        assertThat(reply.message()).as(reply.toString()).startsWith(messagePrefix);
    }
}
