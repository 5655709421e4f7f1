package chat.buzz.client;

/**
 * An artifact as the store holds it.
 *
 * @param knownIdOnly confirmed by a known-ID read but not (yet) by a delta read: readable, perhaps not
 *                    discoverable, so left out of the digest (PROTOCOL 4.4a)
 */
public record StoredArtifact(String d, String h, String headId, String eventJson, boolean knownIdOnly) {}
