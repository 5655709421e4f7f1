package chat.buzz.relay.gate;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.jdbi.v3.sqlobject.config.RegisterConstructorMapper;
import org.jdbi.v3.sqlobject.customizer.Bind;
import org.jdbi.v3.sqlobject.statement.SqlQuery;
import org.jdbi.v3.sqlobject.statement.SqlUpdate;

/** The SQL of feature flags: overrides and their append-only history. */
public interface FlagDao {
    record OverrideRow(String gate, Boolean overrideEnabled, Instant updatedAt, String updatedBy) {}

    @SqlQuery("SELECT gate, override_enabled, updated_at, updated_by FROM feature_flags")
    @RegisterConstructorMapper(OverrideRow.class)
    List<OverrideRow> overrides();

    /** Creates the row if needed and locks it, so concurrent flips of one gate queue up. */
    @SqlUpdate("""
            INSERT INTO feature_flags (gate, override_enabled, updated_by) VALUES (:gate, NULL, 'nobody')
            ON CONFLICT (gate) DO NOTHING""")
    void ensureRow(@Bind("gate") String gate);

    @SqlQuery("SELECT gate, override_enabled, updated_at, updated_by FROM feature_flags WHERE gate = :gate FOR UPDATE")
    @RegisterConstructorMapper(OverrideRow.class)
    Optional<OverrideRow> lock(@Bind("gate") String gate);

    @SqlUpdate("""
            UPDATE feature_flags SET override_enabled = :value, updated_at = clock_timestamp(), updated_by = :operator
            WHERE gate = :gate""")
    void setOverride(@Bind("gate") String gate, @Bind("value") Boolean value, @Bind("operator") String operator);

    @SqlUpdate("""
            INSERT INTO feature_flag_history (gate, operator, action, reason, old_value, new_value, forced, unmet)
            VALUES (:gate, :operator, :action, :reason, :oldValue, :newValue, :forced, :unmet)""")
    void appendHistory(
            @Bind("gate") String gate,
            @Bind("operator") String operator,
            @Bind("action") String action,
            @Bind("reason") String reason,
            @Bind("oldValue") boolean oldValue,
            @Bind("newValue") boolean newValue,
            @Bind("forced") boolean forced,
            @Bind("unmet") String[] unmet);

    @SqlQuery("""
            SELECT id, gate, operator, changed_at, action, reason, old_value, new_value, forced, unmet
            FROM feature_flag_history WHERE (CAST(:gate AS text) IS NULL OR gate = CAST(:gate AS text)) ORDER BY id DESC LIMIT :limit""")
    @RegisterConstructorMapper(FlagHistoryEntry.class)
    List<FlagHistoryEntry> history(@Bind("gate") String gate, @Bind("limit") int limit);
}
