package chat.buzz.relay.ops;

import chat.buzz.relay.admin.Operator;
import chat.buzz.relay.database.DatabaseFaults;
import chat.buzz.relay.database.DatabaseOutage;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dropwizard.servlets.tasks.Task;
import java.io.PrintWriter;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The admin-port tasks runbooks call with curl; each answers JSON, refusals with their 4xx status. */
public final class OpsTasks {
    private static final Logger LOG = LoggerFactory.getLogger(OpsTasks.class);

    private OpsTasks() {}

    public static List<Task> all(OperatorActions actions, ObjectMapper json, DatabaseOutage outage) {
        return List.of(
                new JsonTask(
                        "flag",
                        json,
                        outage,
                        p -> actions.setFlag(
                                Operator.name(),
                                OperatorInput.gate(p.apply("gate")),
                                OperatorInput.action(p.apply("value")),
                                p.apply("reason"),
                                OperatorInput.yesNo("force", p.apply("force")))),
                new JsonTask(
                        "record-migration",
                        json,
                        outage,
                        p -> actions.recordMigration(Operator.name(), p.apply("id"), p.apply("reason"))),
                new JsonTask("rollback-incremental", json, outage, p -> rollback(actions, p)),
                new JsonTask(
                        "forget-instance",
                        json,
                        outage,
                        p -> actions.forgetInstance(Operator.name(), p.apply("instance"), p.apply("reason"))));
    }

    /** The switches in the order they were always checked: force, dry-run, confirm. */
    private static IncrementalRollback.Outcome rollback(OperatorActions actions, Function<String, String> p) {
        boolean force = OperatorInput.yesNo("force", p.apply("force"));
        boolean dryRun = OperatorInput.yesNo("dry-run", p.apply("dry-run"));
        boolean confirmed = OperatorInput.confirmed(p.apply("confirm"));
        return actions.rollback(Operator.name(), dryRun, confirmed, p.apply("reason"), force);
    }

    private static final class JsonTask extends Task {
        private final ObjectMapper json;
        private final DatabaseOutage outage;
        private final Function<Function<String, String>, Object> action;

        JsonTask(
                String name,
                ObjectMapper json,
                DatabaseOutage outage,
                Function<Function<String, String>, Object> action) {
            super(name);
            this.json = json;
            this.outage = outage;
            this.action = action;
        }

        @Override
        public Optional<String> getResponseContentType() {
            return Optional.of("application/json");
        }

        @Override
        public void execute(Map<String, List<String>> parameters, PrintWriter output) throws Exception {
            Function<String, String> parameter = name -> Optional.ofNullable(parameters.get(name))
                    .filter(values -> !values.isEmpty())
                    .map(values -> values.get(0))
                    .orElse(null);
            try {
                output.print(json.writeValueAsString(action.apply(parameter)));
            } catch (OpsRefusal refusal) {
                Operator.respondWithStatus(refusal.status());
                output.print(json.writeValueAsString(refusal.body()));
            } catch (RuntimeException e) {
                if (DatabaseFaults.isFault(e)) {
                    int retryAfter = outage.turnedAway(e);
                    Operator.respondUnavailable(retryAfter);
                    output.print(json.writeValueAsString(OpsApiErrors.databaseUnavailable(retryAfter)));
                } else {
                    // The log has the exception; the answer has nothing of it (it may quote SQL or the driver).
                    LOG.error("Task {} failed", getName(), e);
                    Operator.respondWithStatus(500);
                    output.print(json.writeValueAsString(OpsApiErrors.INTERNAL_ERROR));
                }
            }
            output.println();
        }
    }
}
