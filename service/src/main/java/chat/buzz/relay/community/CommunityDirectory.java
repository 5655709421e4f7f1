package chat.buzz.relay.community;

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.jdbi.v3.core.Jdbi;

/** Maps Host headers to communities; the mapping is configuration, the ids come from the database. */
public final class CommunityDirectory {
    private final Map<String, Community> byHost;

    private CommunityDirectory(Map<String, Community> byHost) {
        this.byHost = Map.copyOf(byHost);
    }

    public static CommunityDirectory load(Jdbi jdbi, List<CommunityConfig> configs) {
        Map<String, Community> byHost = new HashMap<>();
        jdbi.useTransaction(handle -> {
            CommunityDao dao = handle.attach(CommunityDao.class);
            for (CommunityConfig config : configs) {
                Community community = new Community(dao.ensure(config.name()), config.name());
                for (String host : config.hosts()) {
                    Community previous = byHost.put(host.toLowerCase(Locale.ROOT), community);
                    if (previous != null && !previous.equals(community)) {
                        throw new IllegalStateException("host " + host + " is mapped to two communities");
                    }
                }
            }
        });
        return new CommunityDirectory(byHost);
    }

    /** @param hostHeader the raw Host header, possibly with a port or an IPv6 literal */
    public Optional<Community> forHostHeader(String hostHeader) {
        if (hostHeader == null || hostHeader.isBlank()) {
            return Optional.empty();
        }
        return Optional.ofNullable(byHost.get(hostWithoutPort(hostHeader.trim()).toLowerCase(Locale.ROOT)));
    }

    static String hostWithoutPort(String host) {
        if (host.startsWith("[")) {
            int end = host.indexOf(']');
            return end > 0 ? host.substring(1, end) : host;
        }
        int colon = host.indexOf(':');
        return colon >= 0 && host.indexOf(':', colon + 1) < 0 ? host.substring(0, colon) : host;
    }
}
