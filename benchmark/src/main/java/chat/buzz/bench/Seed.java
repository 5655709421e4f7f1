package chat.buzz.bench;

import chat.buzz.protocol.NostrKeys;
import java.util.UUID;

/** An open channel with a few hundred artifacts, written through the relay's own API. */
public record Seed(NostrKeys keys, UUID channel) {

    public static Seed create(String baseUrl, int artifacts) {
        SignedCalls calls = new SignedCalls(baseUrl);
        NostrKeys keys = NostrKeys.generate();
        UUID channel = UUID.randomUUID();
        calls.post(
                        keys,
                        "/events",
                        Events.channel(keys, channel, "benchmark", "open").toJson())
                .expectOk("seeding the channel");
        for (int i = 0; i < artifacts; i++) {
            calls.post(
                            keys,
                            "/events",
                            Events.revision(
                                            keys,
                                            UUID.randomUUID(),
                                            channel,
                                            null,
                                            "seeded task " + i,
                                            "seeded body " + i)
                                    .toJson())
                    .expectOk("seeding an artifact");
        }
        return new Seed(keys, channel);
    }
}
