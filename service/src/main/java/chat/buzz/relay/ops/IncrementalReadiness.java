package chat.buzz.relay.ops;

import chat.buzz.relay.gate.Gate;
import chat.buzz.relay.gate.GatePreconditions;
import chat.buzz.relay.incremental.ExpectedIndex;
import chat.buzz.relay.incremental.IncrementalSchema;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.jdbi.v3.core.Jdbi;

/**
 * Whether the schema is ready for incremental reads: every changeset of IncrementalSchema in
 * Liquibase's ledger, every expected index present, valid, ready and defined exactly as expected.
 */
public final class IncrementalReadiness implements GatePreconditions {
    private final Jdbi jdbi;

    public IncrementalReadiness(Jdbi jdbi) {
        this.jdbi = jdbi;
    }

    @Override
    public List<String> unmet(Gate gate) {
        if (gate != Gate.INCREMENTAL) {
            return List.of();
        }
        List<String> unmet = new ArrayList<>();
        Set<String> recorded = new HashSet<>(jdbi.withExtension(
                SchemaDao.class,
                dao -> dao.recorded(IncrementalSchema.CHANGESET_AUTHOR, IncrementalSchema.CHANGESETS)));
        for (String id : IncrementalSchema.CHANGESETS) {
            if (!recorded.contains(id)) {
                unmet.add("changeset " + IncrementalSchema.CHANGESET_AUTHOR + ":" + id
                        + " is not recorded in databasechangelog");
            }
        }
        for (IndexCheck index : indexes()) {
            if (!index.usable()) {
                unmet.add(index.problem());
            }
        }
        return unmet;
    }

    public List<IndexCheck> indexes() {
        List<String> names =
                IncrementalSchema.INDEXES.stream().map(ExpectedIndex::name).toList();
        Map<String, SchemaDao.IndexRow> actual = jdbi.withExtension(SchemaDao.class, dao -> dao.indexes(names)).stream()
                .collect(Collectors.toMap(SchemaDao.IndexRow::name, Function.identity()));
        return IncrementalSchema.INDEXES.stream()
                .map(e -> IndexCheck.of(e, actual.get(e.name())))
                .toList();
    }

    public Optional<IndexCheck> index(String name) {
        return indexes().stream().filter(i -> i.name().equals(name)).findFirst();
    }
}
