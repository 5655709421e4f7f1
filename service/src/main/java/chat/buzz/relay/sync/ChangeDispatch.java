package chat.buzz.relay.sync;

import chat.buzz.relay.changes.Change;

/**
 * Where the change listener's changes go: the artifact subscriptions' {@link Fanout} and the channel
 * metadata subscriptions. A lost feed ends every subscription, so each rebuilds from a fresh snapshot.
 */
final class ChangeDispatch implements ChangeListener.Feed {
    private final SyncContext context;
    private final Fanout fanout;

    ChangeDispatch(SyncContext context, Fanout fanout) {
        this.context = context;
        this.fanout = fanout;
    }

    @Override
    public void changed(Change change) {
        fanout.accept(change);
        context.channelMetadata().accept(change);
    }

    @Override
    public void lost(String message) {
        context.metrics().feedReset();
        context.subscriptions().closeAll(message);
        context.channelMetadata().resetAll(message);
    }
}
