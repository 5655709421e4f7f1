package chat.buzz.relay.artifact;

import chat.buzz.protocol.Kinds;
import chat.buzz.relay.events.EventHandler;
import chat.buzz.relay.identity.RelayIdentity;
import java.time.Clock;
import java.util.Map;

/** The artifact kinds the write path hands to artifacts: revisions and redactions. */
public final class ArtifactFeature {
    private ArtifactFeature() {}

    public static Map<Integer, EventHandler> handlers(RelayIdentity relay, Clock clock) {
        return Map.of(
                Kinds.ARTIFACT_REVISION,
                new ArtifactWrites(new RemovalMarkers(relay, clock)),
                Kinds.REDACTION,
                new Redactions());
    }
}
