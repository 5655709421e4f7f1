package chat.buzz.relay.auth;

import chat.buzz.relay.community.Community;
import java.security.Principal;

/** The authenticated pubkey (NIP-98) and the community its request addressed. */
public record Caller(String pubkey, Community community) implements Principal {
    @Override
    public String getName() {
        return pubkey;
    }
}
