package chat.buzz.relay.ops;

import chat.buzz.relay.incremental.ExpectedIndex;
import chat.buzz.relay.incremental.IncrementalSchema;
import com.codahale.metrics.MetricRegistry;
import io.dropwizard.db.DataSourceFactory;
import io.dropwizard.migrations.CloseableLiquibase;
import io.dropwizard.migrations.CloseableLiquibaseWithClassPathMigrationsFile;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import liquibase.Contexts;
import liquibase.LabelExpression;
import liquibase.change.Change;
import liquibase.changelog.ChangeLogHistoryServiceFactory;
import liquibase.changelog.ChangeSet;
import liquibase.exception.LiquibaseException;
import liquibase.lockservice.LockService;
import liquibase.lockservice.LockServiceFactory;
import liquibase.sql.Sql;
import liquibase.sqlgenerator.SqlGeneratorFactory;
import org.jdbi.v3.core.Jdbi;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Liquibase's ledger as operators need it: what ran, what is pending and the SQL it would run, and
 * recording one changeset an operator applied by hand (changelog sync for a single changeset).
 */
public final class MigrationLedger {
    /** Changesets whose postcondition is an index: recorded only once that index is usable. */
    static final Map<String, String> INDEX_POSTCONDITIONS = indexPostconditions();

    /** The logger of the operator audit lines, by a name of its own so a log shipper can pick them out. */
    public static final String AUDIT_LOGGER = "chat.buzz.relay.ops.audit";

    private static final Logger AUDIT_LOG = LoggerFactory.getLogger(AUDIT_LOGGER);

    private final Jdbi jdbi;
    private final DataSourceFactory dataSource;
    private final String changelog;
    private final IncrementalReadiness readiness;

    public MigrationLedger(Jdbi jdbi, DataSourceFactory dataSource, String changelog, IncrementalReadiness readiness) {
        this.jdbi = jdbi;
        this.dataSource = dataSource;
        this.changelog = changelog;
        this.readiness = readiness;
    }

    public List<SchemaDao.LedgerRow> ledger() {
        return jdbi.withExtension(SchemaDao.class, SchemaDao::ledger);
    }

    public List<SchemaDao.BuildProgress> runningBuilds() {
        return jdbi.withExtension(SchemaDao.class, SchemaDao::runningBuilds);
    }

    public boolean tagExists(String tag) {
        return jdbi.withExtension(SchemaDao.class, dao -> dao.tagExists(tag));
    }

    public List<PendingChangeSet> pending() {
        return withLiquibase(liquibase -> {
            List<PendingChangeSet> pending = new ArrayList<>();
            for (ChangeSet changeSet : liquibase.listUnrunChangeSets(new Contexts(), new LabelExpression())) {
                List<String> sql = new ArrayList<>();
                for (Change change : changeSet.getChanges()) {
                    for (Sql statement :
                            SqlGeneratorFactory.getInstance().generateSql(change, liquibase.getDatabase())) {
                        sql.add(statement.toSql());
                    }
                }
                pending.add(
                        new PendingChangeSet(changeSet.getId(), changeSet.getAuthor(), changeSet.getFilePath(), sql));
            }
            return pending;
        });
    }

    /**
     * Marks one pending changeset as executed, with Liquibase's own checksum, after checking that what
     * it would have done is in place. Refuses changesets whose predecessors are still pending, so the
     * ledger never claims a later step without the earlier ones.
     */
    public SchemaDao.LedgerRow record(String operator, String id, String reason) {
        try {
            SchemaDao.LedgerRow row = withLiquibase(liquibase -> {
                List<ChangeSet> unrun = liquibase.listUnrunChangeSets(new Contexts(), new LabelExpression());
                Optional<ChangeSet> target =
                        unrun.stream().filter(c -> c.getId().equals(id)).findFirst();
                if (target.isEmpty()) {
                    boolean ran = ledger().stream().anyMatch(r -> r.id().equals(id));
                    throw ran
                            ? new OpsRefusal(409, "already_recorded", "changeset " + id + " is already recorded")
                            : new OpsRefusal(404, "unknown_changeset", "no changeset " + id + " in " + changelog);
                }
                ChangeSet changeSet = target.get();
                if (unrun.get(0) != changeSet) {
                    throw new OpsRefusal(
                            409,
                            "earlier_changesets_pending",
                            "record the earlier changesets first",
                            unrun.subList(0, unrun.indexOf(changeSet)).stream()
                                    .map(ChangeSet::getId)
                                    .toList());
                }
                List<String> unmet = postconditionProblems(id);
                if (!unmet.isEmpty()) {
                    throw new OpsRefusal(
                            409, "postcondition_unmet", "changeset " + id + " has not taken effect", unmet);
                }
                LockService lock = LockServiceFactory.getInstance().getLockService(liquibase.getDatabase());
                lock.waitForLock();
                try {
                    liquibase.getDatabase().markChangeSetExecStatus(changeSet, ChangeSet.ExecType.EXECUTED);
                    liquibase.getDatabase().commit();
                } finally {
                    lock.releaseLock();
                }
                return ledger().stream()
                        .filter(r -> r.id().equals(id))
                        .findFirst()
                        .orElseThrow();
            });
            audit(operator, "record-migration", id, "recorded", reason);
            return row;
        } catch (OpsRefusal refusal) {
            audit(
                    operator,
                    "record-migration",
                    id,
                    "refused: " + refusal.code(),
                    String.join("; ", refusal.missing()) + (reason == null ? "" : " / " + reason));
            throw refusal;
        }
    }

    private List<String> postconditionProblems(String id) {
        String index = INDEX_POSTCONDITIONS.get(id);
        if (index == null) {
            return List.of();
        }
        return readiness
                .index(index)
                .filter(check -> !check.usable())
                .map(check -> List.of(check.problem()))
                .orElse(List.of());
    }

    public List<SchemaDao.AuditRow> auditTrail(int limit) {
        return jdbi.withExtension(SchemaDao.class, dao -> dao.audit(limit));
    }

    /**
     * Every audited operator action, one line each, so the log names the operator as the audit table does
     * (gate flips log theirs in DatabaseGates). Written before the row, so an action whose row cannot be
     * stored is still in the log. Line breaks in operator text are flattened: one action, one line.
     */
    void audit(String operator, String action, String subject, String outcome, String detail) {
        AUDIT_LOG.info(
                "Operator {} {} {}: {}{}",
                oneLine(operator),
                action,
                oneLine(subject),
                oneLine(outcome),
                detail == null || detail.isBlank() ? "" : " (" + oneLine(detail) + ")");
        jdbi.useExtension(
                SchemaDao.class, dao -> dao.audit(operator, action, subject, outcome, detail == null ? "" : detail));
    }

    private static String oneLine(String text) {
        return text == null ? "" : text.replaceAll("[\\r\\n\\u2028\\u2029]+", " ");
    }

    /** The statements a rollback to the tag would run, without running them or Liquibase's bookkeeping. */
    public String rollbackSql(String tag) {
        return withLiquibase(liquibase -> {
            StringWriter sql = new StringWriter();
            liquibase.rollback(tag, new Contexts(), new LabelExpression(), sql);
            return RollbackScript.ofLiquibaseOutput(sql.toString());
        });
    }

    public void rollback(String tag) {
        withLiquibase(liquibase -> {
            liquibase.rollback(tag, new Contexts(), new LabelExpression());
            return null;
        });
    }

    /** Brings the schema up to date with the changelog, as the relay does at start with autoMigrate. */
    public void migrate() {
        withLiquibase(liquibase -> {
            liquibase.update(new Contexts(), new LabelExpression());
            return null;
        });
    }

    private interface LiquibaseWork<T> {
        T run(CloseableLiquibase liquibase) throws LiquibaseException;
    }

    private <T> T withLiquibase(LiquibaseWork<T> work) {
        try (CloseableLiquibase liquibase = new CloseableLiquibaseWithClassPathMigrationsFile(
                dataSource.build(new MetricRegistry(), "ops-liquibase"), changelog)) {
            return work.run(liquibase);
        } catch (OpsRefusal refusal) {
            throw refusal;
        } catch (Exception e) {
            throw new IllegalStateException("Liquibase failed: " + e.getMessage(), e);
        } finally {
            // Liquibase keeps what it read of the ledger for the whole JVM; after a rollback or a recorded
            // changeset here, a later migration in this process must read the ledger again.
            ChangeLogHistoryServiceFactory.getInstance().resetAll();
        }
    }

    /** The create and validate steps of 0078 each leave one index behind. */
    private static Map<String, String> indexPostconditions() {
        Map<String, String> map = new HashMap<>();
        for (String id : IncrementalSchema.CHANGESETS) {
            if (id.startsWith("0078-create-") || id.startsWith("0078-validate-")) {
                String stem = id.replaceFirst("^0078-(create|validate)-", "").replaceFirst("-index$", "");
                String name = stem.replace('-', '_') + "_idx";
                IncrementalSchema.INDEXES.stream()
                        .map(ExpectedIndex::name)
                        .filter(name::equals)
                        .findFirst()
                        .ifPresent(index -> map.put(id, index));
            }
        }
        return Map.copyOf(map);
    }
}
