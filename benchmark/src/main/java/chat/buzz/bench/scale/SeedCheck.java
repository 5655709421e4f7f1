package chat.buzz.bench.scale;

import chat.buzz.bench.SignedCalls;
import chat.buzz.client.Digest;
import chat.buzz.protocol.Event;
import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The seeded fixture checked through the relay before anything is measured: the run stops if it differs. */
final class SeedCheck {
    private SeedCheck() {}

    /** Reads a seeded artifact back through the relay and compares the relay's digest of the whole set. */
    static Map<String, Object> verify(Reads reads, Fixture fixture) {
        Map<String, Object> results = new LinkedHashMap<>();
        SignedCalls.Reply known = reads.knownIds(
                fixture.reader, List.of(fixture.artifactIds.get(1).toString()));
        JsonNode entry = known.json().path("entries").path(0);
        Event event = Event.fromJson(entry.path("event"));
        boolean readBack = entry.path("op").asText().equals("upsert")
                && event.id().equals(fixture.headIds.get(1))
                && event.hasValidId()
                && event.hasValidSignature();
        results.put("seed_read_back", readBack);
        results.put("event_bytes", event.toJson().getBytes(StandardCharsets.UTF_8).length);
        SignedCalls.Reply digest = reads.digest(fixture.reader);
        Object digestMatches = digest.status() == 200
                ? digest.json().path("digest").asText().equals(expectedDigest(fixture))
                        && digest.json().path("count").asLong() == fixture.artifactIds.size()
                : "status " + digest.status();
        results.put("seed_digest_matches", digestMatches);
        if (!readBack || Boolean.FALSE.equals(digestMatches)) {
            throw new IllegalStateException("the seeded fixture does not read back as written: " + results);
        }
        return results;
    }

    /** The digest a client holding exactly the seeded set computes, with the client library's own code. */
    private static String expectedDigest(Fixture fixture) {
        Digest digest = new Digest();
        for (int i = 0; i < fixture.artifactIds.size(); i++) {
            digest.add(fixture.artifactIds.get(i).toString(), fixture.headIds.get(i));
        }
        return digest.hex();
    }
}
