package chat.buzz.relay.artifact;

import java.util.UUID;

/** The current accepted revision of an artifact, as the write path sees it. */
public record ArtifactHead(UUID d, UUID channelId, String headEventId, String type, boolean deleted) {}
