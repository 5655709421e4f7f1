package chat.buzz.relay.web;

import chat.buzz.relay.database.DatabaseOutage;
import io.dropwizard.core.server.AbstractServerFactory;
import io.dropwizard.core.server.ServerFactory;
import io.dropwizard.core.setup.Environment;
import jakarta.servlet.DispatcherType;
import java.util.EnumSet;
import java.util.Map;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.util.component.LifeCycle;

/** Every error either port answers is the contract's {@code {"error": ...}} JSON, whoever produces it. */
public final class ErrorAnswers {
    private ErrorAnswers() {}

    /** @param outageReplies per path, what a request turned away during a database outage is told */
    public static void register(
            Environment environment,
            ServerFactory serverFactory,
            DatabaseOutage outage,
            Map<String, OutageReply> outageReplies) {
        if (serverFactory instanceof AbstractServerFactory server) {
            // Our mappers answer every error in the contract's {"error": ...} shape.
            server.setRegisterDefaultExceptionMappers(false);
        }
        environment.jersey().register(new RefusalMapper());
        environment.jersey().register(new WebApplicationExceptionMapper());
        environment.jersey().register(new UnexpectedExceptionMapper(outage, outageReplies));
        // An outage ends when a request that used the database is answered again, on either port.
        DatabaseRecoveryFilter recovery = new DatabaseRecoveryFilter(outage);
        environment
                .servlets()
                .addFilter("database-recovery", recovery)
                .addMappingForUrlPatterns(EnumSet.of(DispatcherType.REQUEST), false, "/*");
        environment
                .admin()
                .addFilter("database-recovery", recovery)
                .addMappingForUrlPatterns(EnumSet.of(DispatcherType.REQUEST), false, "/*");
        // What Jetty answers itself (a header too large, an unknown admin route) is JSON too, on both ports.
        environment.getApplicationContext().setErrorHandler(new JsonServletErrorHandler());
        environment.getAdminContext().setErrorHandler(new JsonServletErrorHandler());
        environment.lifecycle().addEventListener(new LifeCycle.Listener() {
            @Override
            public void lifeCycleStarting(LifeCycle event) {
                if (event instanceof Server server) {
                    server.setErrorHandler(new JsonErrorHandler());
                }
            }
        });
    }
}
