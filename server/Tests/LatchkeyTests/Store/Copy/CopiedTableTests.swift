import Foundation
import GRDB
import Latchkey
import LatchkeyDomain
import Testing

/// The description `latchkey copy` works from against each store's migrated schema: a table or a column a migration
/// adds without describing it here would otherwise be left behind by every copy.
@Suite(.outsideProcesses) struct CopiedTableTests {
    @Test(arguments: StoreKind.all) func everyTableAndColumnOfTheSchemaIsCopiedAsItsKind(_ kind: StoreKind) async throws {
        try await withWorkspace { workspace in
            let configuration = try await kind.configuration(in: workspace)
            _ = try await makeStore(configuration, logger: CopyDeployment.logger)
            var described: [String: [String: String]] = [:]
            for table in CopiedTable.all {
                described[table.name] = Dictionary(uniqueKeysWithValues: table.columns.map { ($0.name, kind.storedType($0.kind)) })
            }
            #expect(try await kind.schema(configuration, in: workspace) == described)
        }
    }
}

extension StoreKind {
    /// How this store spells a kind of column, as its schema reports it (SQLite's declared types, PostgreSQL's
    /// `information_schema` types, both integer widths counting as one).
    fileprivate func storedType(_ kind: CopiedTable.Kind) -> String {
        switch (self, kind) {
        case (_, .text): "text"
        case (_, .integer), (.sqlite, .boolean): "integer"
        case (_, .real): "real"
        case (.postgres, .boolean): "boolean"
        case (_, .blob), (_, .sealed): "blob"
        }
    }

    /// Every table of the migrated store but the migrations' own, with its columns and their types.
    fileprivate func schema(_ configuration: AppConfiguration, in workspace: TestWorkspace) async throws -> [String: [String: String]] {
        let columns: [(table: String, column: String, type: String)]
        switch self {
        case .sqlite:
            columns = try await workspace.openDatabase().read { db in
                try Row.fetchAll(
                    db,
                    sql: """
                        SELECT m.name AS tbl, c.name AS col, lower(c.type) AS type FROM sqlite_master m, pragma_table_info(m.name) c
                        WHERE m.type = 'table' AND m.name NOT IN ('sqlite_sequence', 'grdb_migrations')
                        """
                ).map { ($0["tbl"], $0["col"], $0["type"]) }
            }
        case .postgres:
            let (host, port) = try #require(PostgresTestServer.address)
            let database = try #require(configuration.storage.postgres?.database)
            let psql = try await ChildProcess.run(
                [
                    "psql", "-h", host, "-p", "\(port)", "-U", "latchkey", "-d", database, "-At", "-F", "|", "-c",
                    "SELECT table_name, column_name, data_type FROM information_schema.columns "
                        + "WHERE table_schema = 'public' AND table_name <> 'latchkey_migrations'",
                ], in: workspace.directory)
            try #require(psql.status == 0, "\(psql.error)")
            columns = try psql.output.split(separator: "\n").map { line in
                let fields = line.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
                try #require(fields.count == 3, "\(line)")
                return (fields[0], fields[1], fields[2])
            }
        }
        let spelled = ["bigint": "integer", "double precision": "real", "bytea": "blob"]
        var schema: [String: [String: String]] = [:]
        for (table, column, type) in columns {
            schema[table, default: [:]][column] = spelled[type] ?? type
        }
        return schema
    }
}
