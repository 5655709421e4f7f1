package chat.buzz.relay.web;

import ch.qos.logback.access.jetty.RequestLogImpl;
import io.dropwizard.lifecycle.setup.LifecycleEnvironment;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.util.component.LifeCycle;

/**
 * The request log's own start-up report stays quiet. logback-access checks its version against
 * logback-core's from each jar's manifest; in the packaged (shaded) jar those manifests are merged
 * into one, so every start warned "Versions ... are different!" about versions that are in fact the
 * ones the Dropwizard BOM chose. Configuration errors still reach the log through its appenders.
 */
public final class QuietRequestLog {
    private QuietRequestLog() {}

    public static void installOn(LifecycleEnvironment lifecycle) {
        lifecycle.addEventListener(new LifeCycle.Listener() {
            @Override
            public void lifeCycleStarting(LifeCycle event) {
                if (event instanceof Server server && server.getRequestLog() instanceof RequestLogImpl log) {
                    log.setQuiet(true);
                }
            }
        });
    }
}
