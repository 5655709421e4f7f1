package chat.buzz.relay.query;

import chat.buzz.relay.channelmeta.ChannelMetadataReads;
import io.dropwizard.core.setup.Environment;
import org.jdbi.v3.core.Jdbi;

/** {@code POST /query}: current reads here, incremental reads and channel metadata handed in by their features. */
public final class QueryFeature {
    private QueryFeature() {}

    public static QueryResource register(
            Environment environment,
            Jdbi jdbi,
            CurrentConfig current,
            IncrementalMode incremental,
            ChannelMetadataReads channelMetadata) {
        QueryResource query =
                new QueryResource(new CurrentReads(jdbi, current, environment.metrics()), incremental, channelMetadata);
        environment.jersey().register(query);
        return query;
    }
}
