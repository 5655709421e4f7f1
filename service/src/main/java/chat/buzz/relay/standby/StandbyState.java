package chat.buzz.relay.standby;

/** What the routing makes of a standby's last sample. */
public enum StandbyState {
    /** Not sampled yet: serves nothing. */
    STARTING,
    /** In recovery, replay lag within the bound: serves reads. */
    HEALTHY,
    /** In recovery, but further behind the primary than the bound (or how far is unknown): serves nothing. */
    LAGGING,
    /** Did not answer its sample, or a read on it broke: serves nothing until a sample succeeds. */
    UNREACHABLE,
    /** No longer in recovery (promoted): its data has left the primary's history; serves nothing. */
    PROMOTED;

    public boolean serves() {
        return this == HEALTHY;
    }
}
