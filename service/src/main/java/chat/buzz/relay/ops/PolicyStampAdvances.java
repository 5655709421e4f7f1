package chat.buzz.relay.ops;

import chat.buzz.relay.changes.PolicyChangeRecorder;
import com.codahale.metrics.MetricRegistry;
import java.util.UUID;
import org.jdbi.v3.core.Handle;

/**
 * Keeps every policy stamp advance, in the write's own transaction, so a burst's causes can be listed.
 * A change delivered as entries advances nothing: it is kept with its cause in policy_changes_as_entries
 * (beside channel_settings_history, which says what changed), where that table exists.
 */
public final class PolicyStampAdvances implements PolicyChangeRecorder {
    private final MetricRegistry metrics;

    public PolicyStampAdvances(MetricRegistry metrics) {
        this.metrics = metrics;
    }

    @Override
    public void channelPolicyChanged(
            Handle handle, long communityId, UUID channelId, String change, String actor, Delivered delivered) {
        if (delivered.asEntries()) {
            BurstDao dao = handle.attach(BurstDao.class);
            if (dao.changesAsEntriesKept()) {
                dao.recordChangeAsEntries(delivered.settingsChange(), change, actor);
            }
            metrics.meter(MetricRegistry.name("ops", "policy-changes-as-entries", "community-" + communityId))
                    .mark();
            return;
        }
        handle.attach(BurstDao.class).recordAdvance(communityId, channelId, change, actor);
        metrics.meter(MetricRegistry.name("ops", "policy-stamp-advances", "community-" + communityId))
                .mark();
    }
}
