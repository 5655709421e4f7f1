package chat.buzz.relay.fleet;

/** One row of GET /api/instances: the instance's last report and how long ago it came. */
public record InstanceView(InstanceReport report, boolean stale, double secondsSinceSeen, boolean self) {}
