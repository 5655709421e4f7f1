package chat.buzz.client;

import chat.buzz.protocol.Limits;
import com.fasterxml.jackson.databind.JsonNode;

/**
 * What a relay's information document (PROTOCOL 6) says it offers.
 *
 * @param pageLimit the {@code limit} a delta read asks for: the relay's {@code max_limit} (at most
 *                  the protocol's), or the default page size from a relay that names none
 */
public record RelayCapabilities(String name, boolean incremental, boolean sync, int pageLimit) {
    public static RelayCapabilities from(JsonNode information) {
        boolean incremental = false;
        boolean sync = false;
        for (JsonNode capability : information.path("capabilities")) {
            incremental |= capability.asText().equals("artifacts.incremental");
            sync |= capability.asText().equals("artifacts.sync");
        }
        JsonNode maxLimit = information.path("artifacts").path("incremental").path("max_limit");
        int pageLimit = maxLimit.isIntegralNumber() && maxLimit.canConvertToInt() && maxLimit.intValue() >= 1
                ? Math.min(maxLimit.intValue(), Limits.INCREMENTAL_MAX_LIMIT)
                : Limits.INCREMENTAL_PAGE_SIZE;
        return new RelayCapabilities(information.path("name").asText(""), incremental, sync, pageLimit);
    }
}
