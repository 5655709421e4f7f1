package chat.buzz.relay.community;

import io.dropwizard.core.setup.Environment;
import java.util.List;
import org.jdbi.v3.core.Jdbi;

/** Tenancy: every request's Host selects its community before anything else looks at it. */
public final class CommunityFeature {
    private CommunityFeature() {}

    public static CommunityDirectory register(Environment environment, Jdbi jdbi, List<CommunityConfig> configs) {
        CommunityDirectory communities = CommunityDirectory.load(jdbi, configs);
        environment.jersey().register(new TenancyFilter(communities));
        return communities;
    }
}
