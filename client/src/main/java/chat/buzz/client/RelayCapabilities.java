package chat.buzz.client;

import com.fasterxml.jackson.databind.JsonNode;

/** What a relay's information document (PROTOCOL 6) says it offers. */
public record RelayCapabilities(String name, boolean incremental, boolean sync) {
    public static RelayCapabilities from(JsonNode information) {
        boolean incremental = false;
        boolean sync = false;
        for (JsonNode capability : information.path("capabilities")) {
            incremental |= capability.asText().equals("artifacts.incremental");
            sync |= capability.asText().equals("artifacts.sync");
        }
        return new RelayCapabilities(information.path("name").asText(""), incremental, sync);
    }
}
