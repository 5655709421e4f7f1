package chat.buzz.relay.info;

import chat.buzz.relay.gate.Gate;
import chat.buzz.relay.gate.Gates;
import chat.buzz.relay.identity.RelayConfig;
import chat.buzz.relay.sync.SyncConfig;
import io.dropwizard.core.setup.Environment;

/** The NIP-11 document, whose capabilities follow the gates as they are flipped. */
public final class InformationFeature {
    private InformationFeature() {}

    public static void register(
            Environment environment,
            RelayConfig relay,
            String relayPubkey,
            Gates gates,
            int overlapSeconds,
            SyncConfig sync) {
        Capabilities capabilities = new Capabilities();
        for (Gate gate : Gate.values()) {
            if (!gate.advertised()) {
                continue;
            }
            capabilities.register(gate.capability(), () -> gates.isEnabled(gate));
        }
        environment
                .jersey()
                .register(new InformationResource(
                        relay,
                        relayPubkey,
                        capabilities,
                        () -> gates.isEnabled(Gate.SCOPED_POLICY),
                        overlapSeconds,
                        sync));
    }
}
