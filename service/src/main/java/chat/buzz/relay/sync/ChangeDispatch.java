package chat.buzz.relay.sync;

import chat.buzz.relay.changes.Change;
import chat.buzz.relay.channelmeta.ChannelMetadataLive;

/**
 * Where the change listener's changes go: the artifact subscriptions' {@link Fanout} and the channel
 * metadata subscriptions. A lost feed ends every subscription, so each rebuilds from a fresh snapshot.
 */
final class ChangeDispatch implements ChangeListener.Feed {
    private final Fanout fanout;
    private final ChannelMetadataLive channelMetadata;
    private final LiveSubscriptions subscriptions;
    private final SyncMetrics metrics;

    ChangeDispatch(
            Fanout fanout, ChannelMetadataLive channelMetadata, LiveSubscriptions subscriptions, SyncMetrics metrics) {
        this.fanout = fanout;
        this.channelMetadata = channelMetadata;
        this.subscriptions = subscriptions;
        this.metrics = metrics;
    }

    @Override
    public void changed(Change change) {
        fanout.accept(change);
        channelMetadata.accept(change);
    }

    @Override
    public void lost(String message) {
        metrics.feedReset();
        subscriptions.closeAll(message);
        channelMetadata.resetAll(message);
    }
}
