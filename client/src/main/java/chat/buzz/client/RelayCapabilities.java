package chat.buzz.client;

import chat.buzz.protocol.Limits;
import chat.buzz.protocol.Nip11;
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
        for (JsonNode capability : information.path(Nip11.CAPABILITIES)) {
            incremental |= capability.asText().equals(Nip11.CAPABILITY_INCREMENTAL);
            sync |= capability.asText().equals(Nip11.CAPABILITY_SYNC);
        }
        JsonNode maxLimit =
                information.path(Nip11.ARTIFACTS).path(Nip11.INCREMENTAL).path(Nip11.MAX_LIMIT);
        int pageLimit = maxLimit.isIntegralNumber() && maxLimit.canConvertToInt() && maxLimit.intValue() >= 1
                ? Math.min(maxLimit.intValue(), Limits.INCREMENTAL_MAX_LIMIT)
                : Limits.INCREMENTAL_PAGE_SIZE;
        return new RelayCapabilities(information.path("name").asText(""), incremental, sync, pageLimit);
    }
}
