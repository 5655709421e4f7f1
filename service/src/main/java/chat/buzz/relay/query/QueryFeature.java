package chat.buzz.relay.query;

import chat.buzz.relay.channelmeta.ChannelMetadataReads;
import chat.buzz.relay.database.ReadNodes;
import io.dropwizard.core.setup.Environment;

/** {@code POST /query}: current reads here, incremental reads and channel metadata handed in by their features. */
public final class QueryFeature {
    private QueryFeature() {}

    public static QueryResource register(
            Environment environment,
            ReadNodes nodes,
            CurrentConfig current,
            IncrementalMode incremental,
            ChannelMetadataReads channelMetadata) {
        QueryResource query = new QueryResource(
                new CurrentReads(nodes, current, environment.metrics()), incremental, channelMetadata);
        environment.jersey().register(query);
        return query;
    }
}
