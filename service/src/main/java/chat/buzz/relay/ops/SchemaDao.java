package chat.buzz.relay.ops;

import java.time.Instant;
import java.util.Collection;
import java.util.List;
import org.jdbi.v3.sqlobject.config.RegisterConstructorMapper;
import org.jdbi.v3.sqlobject.customizer.Bind;
import org.jdbi.v3.sqlobject.customizer.BindList;
import org.jdbi.v3.sqlobject.statement.SqlQuery;
import org.jdbi.v3.sqlobject.statement.SqlUpdate;

/** The SQL that inspects the schema: Liquibase's ledger, index states and running index builds. */
public interface SchemaDao {
    record LedgerRow(
            String id,
            String author,
            String filename,
            Instant dateexecuted,
            int orderexecuted,
            String exectype,
            String tag,
            String md5sum) {}

    record IndexRow(String name, String table, boolean valid, boolean ready, String definition) {}

    record BuildProgress(
            int pid,
            String index,
            String table,
            String phase,
            long blocksTotal,
            long blocksDone,
            long tuplesTotal,
            long tuplesDone) {}

    @SqlQuery("""
            SELECT id, author, filename, dateexecuted, orderexecuted, exectype, tag, md5sum
            FROM databasechangelog ORDER BY orderexecuted, dateexecuted""")
    @RegisterConstructorMapper(LedgerRow.class)
    List<LedgerRow> ledger();

    @SqlQuery("SELECT id FROM databasechangelog WHERE author = :author AND id IN (<ids>)")
    List<String> recorded(@Bind("author") String author, @BindList("ids") Collection<String> ids);

    @SqlQuery("SELECT count(*) > 0 FROM databasechangelog WHERE tag = :tag")
    boolean tagExists(@Bind("tag") String tag);

    @SqlQuery("""
            SELECT c.relname AS name, t.relname AS table, i.indisvalid AS valid, i.indisready AS ready,
                   pg_get_indexdef(c.oid) AS definition
            FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_class t ON t.oid = i.indrelid
            JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname = current_schema() AND c.relname IN (<names>)""")
    @RegisterConstructorMapper(IndexRow.class)
    List<IndexRow> indexes(@BindList("names") Collection<String> names);

    @SqlQuery("""
            SELECT p.pid, coalesce(ic.relname, '') AS index, coalesce(tc.relname, '') AS table, p.phase,
                   p.blocks_total, p.blocks_done, p.tuples_total, p.tuples_done
            FROM pg_stat_progress_create_index p
            LEFT JOIN pg_class ic ON ic.oid = p.index_relid LEFT JOIN pg_class tc ON tc.oid = p.relid
            WHERE p.datname = current_database() ORDER BY p.pid""")
    @RegisterConstructorMapper(BuildProgress.class)
    List<BuildProgress> runningBuilds();

    @SqlUpdate("""
            INSERT INTO operator_audit (operator, action, subject, outcome, detail)
            VALUES (:operator, :action, :subject, :outcome, :detail)""")
    void audit(
            @Bind("operator") String operator,
            @Bind("action") String action,
            @Bind("subject") String subject,
            @Bind("outcome") String outcome,
            @Bind("detail") String detail);

    record AuditRow(
            long id,
            String operator,
            String action,
            String subject,
            String outcome,
            String detail,
            Instant happenedAt) {}

    @SqlQuery("""
            SELECT id, operator, action, subject, outcome, detail, happened_at FROM operator_audit
            ORDER BY id DESC LIMIT :limit""")
    @RegisterConstructorMapper(AuditRow.class)
    List<AuditRow> audit(@Bind("limit") int limit);
}
