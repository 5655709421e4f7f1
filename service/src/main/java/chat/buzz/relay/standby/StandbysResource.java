package chat.buzz.relay.standby;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/** {@code GET /api/standbys} on the admin port, behind the operator token like every admin route. */
@Path("standbys")
@Produces(MediaType.APPLICATION_JSON)
public final class StandbysResource {
    private final StandbyRouting routing;

    public StandbysResource(StandbyRouting routing) {
        this.routing = routing;
    }

    @GET
    public StandbysView standbys() {
        return routing.view();
    }
}
