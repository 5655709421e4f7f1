package chat.buzz.relay.query;

import io.dropwizard.core.setup.Environment;
import org.jdbi.v3.core.Jdbi;

/** {@code POST /query}: current reads here, incremental reads handed in by their feature. */
public final class QueryFeature {
    private QueryFeature() {}

    public static QueryResource register(
            Environment environment, Jdbi jdbi, CurrentConfig current, IncrementalMode incremental) {
        QueryResource query = new QueryResource(new CurrentReads(jdbi, current), incremental);
        environment.jersey().register(query);
        return query;
    }
}
