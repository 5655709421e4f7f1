package chat.buzz.relay.community;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotEmpty;
import java.util.List;

/** One tenant and the HTTP hosts (without port) that select it. */
public record CommunityConfig(
        @NotBlank String name, @NotEmpty List<@NotBlank String> hosts) {
    public CommunityConfig {
        hosts = List.copyOf(hosts);
    }
}
