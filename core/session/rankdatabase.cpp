// SPDX-License-Identifier: MIT
#include "session/rankdatabase.h"

#include "analysis/criticalpath/storedpathgraph.h"
#include "analysis/pairs/pairkeys.h"
#include "base/sha256.h"
#include "export/pathgraphtables.h"
#include "export/sqlitehandles.h"
#include "session/rundatabase.h"

#include <sqlite3.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>

namespace ks {

namespace {

//! The text of \a column, whole: a zero within it is kept, as a trace's text keeps it.
std::string columnText(sqlite3_stmt *st, int column)
{
    const auto *text = reinterpret_cast<const char *>(sqlite3_column_text(st, column));
    return text ? std::string(text, size_t(sqlite3_column_bytes(st, column))) : std::string();
}

//! What SQLite said went wrong on \a db, after \a path.
std::string sqliteError(sqlite3 *db, const std::string &path)
{
    if (sqlite3_errcode(db) == SQLITE_INTERRUPT) // ReadingDb's budget ran out
        return path
            + ": not a Kinetoscope database (reading it runs on past what its size "
              "allows: a view of its own?)";
    return path + ": " + sqlite3_errmsg(db);
}

//! \a sql prepared on \a db; null with \a error set (naming \a path) when it cannot be.
SqliteStatement prepare(
    sqlite3 *db, const std::string &sql, const std::string &path, std::string &error)
{
    sqlite3_stmt *st = nullptr;
    const int rc = sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr);
    SqliteStatement owned(st); // finalized whatever throws next
    if (rc != SQLITE_OK) {
        error = path + ": not a Kinetoscope database (" + sqlite3_errmsg(db) + ")";
        return nullptr;
    }
    return owned;
}

/*!
 * Calls \a row for each row of \a st; false with \a error (naming \a path) when \a row refuses
 * one (having set it) or SQLite fails part way: a damaged page never passes for the table's end.
 */
template<class Row>
bool eachRow(sqlite3 *db, sqlite3_stmt *st, const std::string &path, std::string &error, Row row)
{
    int rc = SQLITE_ROW;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW)
        if (!row())
            return false;
    if (rc == SQLITE_DONE)
        return true;
    error = sqliteError(db, path);
    return false;
}

//! meta's rows as key → value, the database's own (rank NULL) and its one rank's alike.
std::optional<std::map<std::string, std::string>> readMeta(
    sqlite3 *db, const std::string &path, std::string &error)
{
    const SqliteStatement st = prepare(db, "SELECT key, value FROM meta", path, error);
    if (!st)
        return std::nullopt;
    std::map<std::string, std::string> meta;
    if (!eachRow(db, st.get(), path, error, [&] {
            meta[columnText(st.get(), 0)] = columnText(st.get(), 1);
            return true;
        }))
        return std::nullopt;
    return meta;
}

//! meta's \a key as a whole number; kNoValue when absent or not one (another program's meta).
int64_t number(const std::map<std::string, std::string> &meta, const std::string &key)
{
    const auto it = meta.find(key);
    if (it == meta.end() || it->second.empty())
        return kNoValue;
    char *end = nullptr;
    errno = 0;
    const long long value = std::strtoll(it->second.c_str(), &end, 10);
    return *end == '\0' && errno == 0 ? int64_t(value) : kNoValue;
}

//! meta's \a key as it is stored; empty when absent.
std::string text(const std::map<std::string, std::string> &meta, const std::string &key)
{
    const auto it = meta.find(key);
    return it == meta.end() ? std::string() : it->second;
}

//! \a column as an event id; kNoSlice when NULL, nullopt when no id at all.
std::optional<SliceId> eventOf(sqlite3_stmt *st, int column)
{
    if (sqlite3_column_type(st, column) == SQLITE_NULL)
        return kNoSlice;
    const int64_t id = sqlite3_column_int64(st, column);
    if (sqlite3_column_type(st, column) != SQLITE_INTEGER || id < 0 || id >= int64_t(kNoSlice))
        return std::nullopt;
    return SliceId(id);
}

//! False with \a error naming \a path as a database whose tables make no sense.
bool notOurs(const std::string &path, const std::string &what, std::string &error)
{
    error = path + ": not a Kinetoscope database (" + what + ")";
    return false;
}

bool readKernels(sqlite3 *db, RankSource &rank, std::string &error)
{
    const SqliteStatement st = prepare(db,
        "SELECT name, collective_name, process_group, comms_id, seq, start_ns, dur_ns, event "
        "FROM collective_kernels", // the view keeps the rows' order
        rank.database, error);
    if (!st)
        return false;
    return eachRow(db, st.get(), rank.database, error, [&] {
        CommRecord &k = rank.kernels.emplace_back();
        k.name = columnText(st.get(), 0);
        k.collective = columnText(st.get(), 1);
        k.processGroup = columnText(st.get(), 2);
        k.commsId = columnText(st.get(), 3);
        k.seq = sqlite3_column_type(st.get(), 4) == SQLITE_NULL ? kNoValue
                                                                : sqlite3_column_int64(st.get(), 4);
        k.start = sqlite3_column_int64(st.get(), 5);
        k.dur = sqlite3_column_int64(st.get(), 6);
        k.slice = eventOf(st.get(), 7).value_or(kNoSlice);
        return true;
    });
}

bool readSteps(sqlite3 *db, RankSource &rank, std::string &error)
{
    const SqliteStatement st = prepare(db, "SELECT step FROM steps", rank.database, error);
    if (!st)
        return false;
    return eachRow(db, st.get(), rank.database, error, [&] {
        rank.steps.push_back(sqlite3_column_int64(st.get(), 0));
        return true;
    });
}

//! \a column of \a st in µs as ns (REAL µs hold whole ns far past any trace's length).
TimeNs microsAsNs(sqlite3_stmt *st, int column)
{
    return TimeNs(std::llround(sqlite3_column_double(st, column) * 1000));
}

int64_t bytesOrNone(sqlite3_stmt *st, int column)
{
    return sqlite3_column_type(st, column) == SQLITE_NULL ? kNoValue
                                                          : sqlite3_column_int64(st, column);
}

//! Its `step_gpu_time`: each step's GPU time breakdown, as gpuTimePerStep() had it.
bool readStepGpuTime(sqlite3 *db, RankSource &rank, std::string &error)
{
    std::string sql = "SELECT step";
    for (const auto &field : gpuTimeFields({}))
        sql += ", " + std::string(field.first);
    const SqliteStatement st = prepare(db, sql + " FROM step_gpu_time", rank.database, error);
    if (!st)
        return false;
    return eachRow(db, st.get(), rank.database, error, [&] {
        std::array<TimeNs, 8> fields {};
        for (size_t i = 0; i < fields.size(); ++i)
            fields[i] = microsAsNs(st.get(), int(i) + 1);
        rank.stepGpuTime.push_back({sqlite3_column_int64(st.get(), 0), gpuTimeOfFields(fields)});
        return true;
    });
}

//! Its `findings`: its trace's health findings, as `--check` tells them.
bool readFindings(sqlite3 *db, RankSource &rank, std::string &error)
{
    const SqliteStatement st
        = prepare(db, "SELECT check_name, severity, count, example, first_ns FROM findings",
            rank.database, error);
    if (!st)
        return false;
    return eachRow(db, st.get(), rank.database, error, [&] {
        const auto check = checkNamed(columnText(st.get(), 0));
        if (!check)
            return notOurs(rank.database, "findings holds a check of no known name", error);
        Finding &f = rank.findings.emplace_back();
        f.check = *check;
        f.severity = columnText(st.get(), 1) == "info" ? Severity::Info : Severity::Warning;
        f.count = uint64_t(sqlite3_column_int64(st.get(), 2));
        f.example = columnText(st.get(), 3);
        if (sqlite3_column_type(st.get(), 4) != SQLITE_NULL)
            f.firstStart = sqlite3_column_int64(st.get(), 4);
        return true;
    });
}

//! What its trace's load lost (the `data_lost` finding), which a run names whatever it reads.
bool readDataLost(sqlite3 *db, RankSource &rank, std::string &error)
{
    const SqliteStatement st
        = prepare(db, "SELECT example FROM findings WHERE check_name = 'data_lost' LIMIT 1",
            rank.database, error);
    if (!st)
        return false;
    return eachRow(db, st.get(), rank.database, error, [&] {
        rank.dataLost = columnText(st.get(), 0);
        return true;
    });
}

//! Its one row of `ranks`: what the rank table says of it.
bool readSummary(sqlite3 *db, RankSource &rank, std::string &error)
{
    const SqliteStatement st = prepare(db,
        "SELECT file, world_size, steps, computation_us, exposed_comm_us, exposed_memcpy_us, "
        "busy_us, idle_us, total_us, total_comm_us, total_memcpy_us, fwd_gpu_us, bwd_gpu_us, "
        "pairs, peak_allocated_bytes, peak_reserved_bytes FROM ranks",
        rank.database, error);
    if (!st)
        return false;
    if (const int rc = sqlite3_step(st.get()); rc != SQLITE_ROW) {
        error = rc == SQLITE_DONE
            ? rank.database + ": not a Kinetoscope database (its ranks table is empty)"
            : sqliteError(db, rank.database);
        return false;
    }
    RankSummary &s = rank.summary;
    s.file = columnText(st.get(), 0);
    s.worldSize = sqlite3_column_int(st.get(), 1);
    s.steps = uint64_t(sqlite3_column_int64(st.get(), 2));
    for (size_t i = 0; i < s.gpuTime.size(); ++i)
        s.gpuTime[i] = microsAsNs(st.get(), int(i) + 3);
    s.fwdGpu = microsAsNs(st.get(), 11);
    s.bwdGpu = microsAsNs(st.get(), 12);
    s.pairs = uint64_t(sqlite3_column_int64(st.get(), 13));
    s.memory = {bytesOrNone(st.get(), 14), bytesOrNone(st.get(), 15)};
    s.gpuUnknown = sqlite3_column_type(st.get(), 3) == SQLITE_NULL; // written empty: unknown
    return true;
}

/*!
 * A database opened for reading, by one thread at a time (no mutex of its own). Its tables are
 * read through views the file itself defines, so a file could make one run on without end (a
 * recursive view, a product of tables): its queries stop, SQLITE_INTERRUPT, past a budget of
 * SQLite's steps proportional to its size — 20 per byte, where reading a Kinetoscope database
 * whole takes under one (0.2 to 0.6 measured) — and run none of its functions but the
 * innocuous ones (SQLITE_DBCONFIG_TRUSTED_SCHEMA off).
 */
class ReadingDb {
public:
    //! Null with \a error set when \a path cannot be opened. On the heap: SQLite keeps the
    //! budget's address.
    static std::unique_ptr<ReadingDb> open(const std::string &path, std::string &error)
    {
        sqlite3 *raw = nullptr;
        const int opened
            = openSqlite(path.c_str(), &raw, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX);
        SqliteDb owned(raw); // closed whatever throws next
        if (opened != SQLITE_OK) {
            error = path + ": " + (raw ? sqlite3_errmsg(raw) : "cannot be opened");
            return nullptr;
        }
        auto db = std::unique_ptr<ReadingDb>(new ReadingDb(std::move(owned)));
        std::error_code ec;
        const uintmax_t size = std::filesystem::file_size(path, ec);
        db->m_stepsLeft = kStepsPerByte * (ec ? 0 : size) + kStepsAtLeast;
        sqlite3_db_config(raw, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, nullptr);
        sqlite3_progress_handler(raw, kStepsPerCall, &ReadingDb::spend, &db->m_stepsLeft);
        return db;
    }
    sqlite3 *get() const { return m_db.get(); }

private:
    static constexpr int kStepsPerCall = 1000;
    static constexpr uintmax_t kStepsPerByte = 20;
    static constexpr uintmax_t kStepsAtLeast = 10'000'000;

    explicit ReadingDb(SqliteDb db)
        : m_db(std::move(db))
    {
    }
    static int spend(void *left)
    {
        auto &steps = *static_cast<uintmax_t *>(left);
        if (steps < uintmax_t(kStepsPerCall))
            return 1; // interrupts the query
        steps -= kStepsPerCall;
        return 0;
    }

    SqliteDb m_db;
    uintmax_t m_stepsLeft = 0;
};

double numberOrNaN(sqlite3_stmt *st, int column)
{
    return sqlite3_column_type(st, column) == SQLITE_NULL ? std::nan("")
                                                          : sqlite3_column_double(st, column);
}

bool readPathNodes(
    sqlite3 *db, const std::string &path, std::vector<PathNode> &nodes, std::string &error)
{
    const SqliteStatement st
        = prepare(db, "SELECT event, start, time_ns FROM path_nodes", path, error);
    if (!st)
        return false;
    return eachRow(db, st.get(), path, error, [&] {
        const auto event = eventOf(st.get(), 0);
        if (!event || *event == kNoSlice)
            return notOurs(path, "path_nodes names no event", error);
        nodes.push_back({.event = *event,
            .start = sqlite3_column_int(st.get(), 1) != 0,
            .time = sqlite3_column_int64(st.get(), 2)});
        return true;
    });
}

bool readPathEdges(sqlite3 *db,
    const std::string &path,
    size_t nodeCount,
    std::vector<PathEdge> &edges,
    std::vector<PathEdge> &stepEdges,
    std::string &error)
{
    const SqliteStatement st = prepare(db,
        "SELECT from_node, to_node, kind, weight_ns, charged, causality FROM path_edges", path,
        error);
    if (!st)
        return false;
    return eachRow(db, st.get(), path, error, [&] {
        const int64_t from = sqlite3_column_int64(st.get(), 0);
        const int64_t to = sqlite3_column_int64(st.get(), 1);
        const auto kind = pathEdgeKindNamed(columnText(st.get(), 2));
        const TimeNs weight = sqlite3_column_int64(st.get(), 3);
        const auto charged = eventOf(st.get(), 4);
        if (from < 0 || to < 0 || size_t(from) >= nodeCount || size_t(to) >= nodeCount || !kind
            || weight < 0 || !charged)
            return notOurs(path, "path_edges holds an edge of no node, kind or event", error);
        (sqlite3_column_int(st.get(), 5) != 0 ? stepEdges : edges)
            .push_back({.from = uint32_t(from),
                .to = uint32_t(to),
                .weight = weight,
                .charged = *charged,
                .kind = *kind});
        return true;
    });
}

//! The events of a rank's graph, their pair rows below \a rows.
bool readPathEvents(sqlite3 *db,
    const std::string &path,
    int64_t rows,
    std::vector<StoredPathEvent> &events,
    std::string &error)
{
    const SqliteStatement st = prepare(db,
        "SELECT event, name, span_bound, pair_row, pair_fwd_name, side FROM path_events", path,
        error);
    if (!st)
        return false;
    return eachRow(db, st.get(), path, error, [&] {
        const auto event = eventOf(st.get(), 0);
        const auto bound = pathBoundNamed(columnText(st.get(), 2));
        const bool paired = sqlite3_column_type(st.get(), 3) != SQLITE_NULL;
        const int64_t row = paired ? sqlite3_column_int64(st.get(), 3) : -1;
        if (!event || *event == kNoSlice || !bound || (paired && (row < 0 || row >= rows)))
            return notOurs(path, "path_events holds an event of no id, class or pair row", error);
        events.push_back({*event, columnText(st.get(), 1), *bound, int(row),
            columnText(st.get(), 5), columnText(st.get(), 4)});
        return true;
    });
}

/*!
 * Its pair rows from `pairs` and `pair_keys` (row for row, in the rows' order), keyed in \a keys
 * as rankPairRows() keys a graph's; \a texts, when given, gets each row's texts.
 */
bool readPairRows(sqlite3 *db,
    const std::string &path,
    StringPool &keys,
    RankPairRows &rows,
    PairRowTexts *texts,
    std::string &error)
{
    const SqliteStatement pairs = prepare(db,
        "SELECT fwd_name, input_dims, step, module, bwd_names, fwd_gpu_us, bwd_gpu_us, "
        "fwd_tflops, bwd_tflops, fwd_ts FROM pairs",
        path, error);
    const SqliteStatement extra = pairs
        ? prepare(db, "SELECT module_path, recompute FROM pair_keys", path, error)
        : nullptr;
    if (!extra)
        return false;
    sqlite3_stmt *p = pairs.get();
    sqlite3_stmt *k = extra.get();
    int more = sqlite3_step(p), moreKeys = sqlite3_step(k);
    for (; more == SQLITE_ROW && moreKeys == SQLITE_ROW;
         more = sqlite3_step(p), moreKeys = sqlite3_step(k)) {
        // As --export-pairs: a forward op has a start (its GPU cells are empty in a cut trace).
        const bool hasForward = sqlite3_column_type(p, 9) != SQLITE_NULL;
        const bool inStep = sqlite3_column_type(p, 2) != SQLITE_NULL;
        const std::string name = columnText(p, 0), dims = columnText(p, 1);
        const PairKeys key = pairKeys(hasForward, name, columnText(k, 0), dims, columnText(p, 4),
            sqlite3_column_int(k, 1) != 0);
        rows.step.push_back(inStep ? sqlite3_column_int64(p, 2) : kNoValue);
        rows.key.push_back(keys.intern(key.key));
        rows.opKey.push_back(keys.intern(key.opKey));
        rows.hasForward.push_back(hasForward);
        rows.forwardGpu.push_back(hasForward ? microsAsNs(p, 5) : 0);
        rows.backwardGpu.push_back(microsAsNs(p, 6));
        rows.forwardTflops.push_back(numberOrNaN(p, 7));
        rows.backwardTflops.push_back(numberOrNaN(p, 8));
        if (texts)
            texts->push_back(
                {name, dims, inStep ? std::to_string(sqlite3_column_int64(p, 2)) : std::string(),
                    columnText(p, 3)});
    }
    if (more == SQLITE_DONE && moreKeys == SQLITE_DONE)
        return true;
    const bool lengths = (more == SQLITE_DONE || more == SQLITE_ROW)
        && (moreKeys == SQLITE_DONE || moreKeys == SQLITE_ROW);
    error = lengths ? path + ": not a Kinetoscope database (pairs and pair_keys differ in length)"
                    : sqliteError(db, path);
    return false;
}

//! Its path graph as `path_*` and meta hold it; \a rows: its pair rows (-1: count them).
bool readStoredPath(sqlite3 *db,
    const std::string &path,
    const std::map<std::string, std::string> &meta,
    int64_t rows,
    StoredRankPath &out,
    std::string &error)
{
    out.step = number(meta, "path_step");
    PathRankGraph &graph = out.graph;
    if (std::string problem = text(meta, "path_problem"); !problem.empty()) {
        graph.problem = std::move(problem);
        return true;
    }
    graph.windowStart = number(meta, "path_window_start_ns");
    graph.windowEnd = number(meta, "path_window_end_ns");
    if (graph.windowStart == kNoValue || graph.windowEnd == kNoValue)
        return notOurs(path, "no path graph in its meta table", error);
    const SqliteStatement count
        = rows < 0 ? prepare(db, "SELECT count(*) FROM pairs", path, error) : nullptr;
    if (rows < 0 && (!count || !eachRow(db, count.get(), path, error, [&] {
            rows = sqlite3_column_int64(count.get(), 0);
            return true;
        })))
        return false;
    std::vector<PathNode> nodes;
    std::vector<PathEdge> edges, stepEdges;
    std::vector<StoredPathEvent> events;
    if (!readPathNodes(db, path, nodes, error)
        || !readPathEdges(db, path, nodes.size(), edges, stepEdges, error)
        || !readPathEvents(db, path, rows, events, error))
        return false;
    graph.graph = std::make_unique<StoredPathGraph>(
        std::move(nodes), std::move(edges), std::move(stepEdges), events, size_t(rows));
    return true;
}

/*!
 * Its identity and clock from \a meta, of this version's format and of one rank; false with
 * \a error when they are not.
 */
/*!
 * Why the trace \a meta names, where it is at hand, is no longer the one digested: another size,
 * or another SHA-256 where it is newer than \a database (hashed only then: a trace of the same
 * size and older than its database is taken as digested, as make and rsync take a file). Empty:
 * current, or the trace is not here to compare.
 */
std::string staleSource(const std::map<std::string, std::string> &meta, const std::string &database)
{
    const std::string file = text(meta, "source_file");
    std::error_code ec;
    const uint64_t size = file.empty() ? 0 : std::filesystem::file_size(file, ec);
    if (file.empty() || ec)
        return {};
    const int64_t digested = number(meta, "source_size");
    if (digested != kNoValue && uint64_t(digested) != size)
        return "its trace " + file + " is " + std::to_string(size) + " bytes now, "
            + std::to_string(digested) + " when digested: digest it again";
    std::error_code traceError, databaseError;
    const auto traceTime = std::filesystem::last_write_time(file, traceError);
    const auto databaseTime = std::filesystem::last_write_time(database, databaseError);
    const std::string sha = text(meta, "source_sha256");
    if ((!traceError && !databaseError && traceTime <= databaseTime) || sha.empty())
        return {};
    const std::string now = fileSha256(file);
    return now.empty() || now == sha
        ? std::string()
        : "its trace " + file + " changed since it was digested (another SHA-256): digest it again";
}

bool readIdentity(
    const std::map<std::string, std::string> &meta, RankSource &rank, std::string &error)
{
    const std::string &path = rank.database;
    const int64_t format = number(meta, "format_version");
    const int64_t ranks = number(meta, "rank_count");
    if (format != kDatabaseFormat) {
        error = path + ": database format "
            + (format == kNoValue ? "unknown" : std::to_string(format)) + ", this version reads "
            + std::to_string(kDatabaseFormat)
            + (format > kDatabaseFormat ? " (written by a newer Kinetoscope: open it with that)"
                                        : " (digest the trace again)");
        return false;
    }
    if (ranks != 1) {
        error = path + ": a database of " + std::to_string(ranks)
            + " ranks; a run opens databases of one rank each (--export-db RANKFILE)";
        return false;
    }
    if (const std::string stale = staleSource(meta, path); !stale.empty()) {
        error = path + ": stale: " + stale;
        return false;
    }
    rank.traceFile = text(meta, "source_file");
    rank.traceRank = number(meta, "trace_rank") == kNoValue ? -1 : int(number(meta, "trace_rank"));
    rank.traceStart = number(meta, "trace_start_ns");
    rank.traceEnd = number(meta, "trace_end_ns");
    rank.traceId = text(meta, "trace_id");
    rank.clockBase = number(meta, "clock_base_ns");
    if (rank.clockBase == kNoValue || rank.traceStart == kNoValue || rank.traceEnd == kNoValue)
        return notOurs(path, "no clock in its meta table", error);
    return true;
}

//! "ProfilerStep#N", or "the whole trace" for kNoValue.
std::string stepText(int64_t step)
{
    return step == kNoValue ? "the whole trace" : "ProfilerStep#" + std::to_string(step);
}

} // namespace

std::optional<RankSource> readRankDatabase(
    const std::string &path, bool &gathered, std::string &error, const RankReading &reading)
{
    const auto db = ReadingDb::open(path, error);
    if (!db)
        return std::nullopt;
    const auto meta = readMeta(db->get(), path, error);
    if (!meta)
        return std::nullopt;
    gathered = number(*meta, "gathered_from") != kNoValue;
    if (gathered)
        return std::nullopt;
    RankSource rank;
    rank.database = path;
    if (!readIdentity(*meta, rank, error))
        return std::nullopt;
    const bool details = reading.details;
    if (!readKernels(db->get(), rank, error) || !readSummary(db->get(), rank, error)
        || !readSteps(db->get(), rank, error) || !readDataLost(db->get(), rank, error)
        || (details
            && (!readStepGpuTime(db->get(), rank, error) || !readFindings(db->get(), rank, error))))
        return std::nullopt;
    AlsoRead &also = rank.alsoRead;
    if (reading.pairKeys) {
        also.pairRows.emplace();
        if (!readPairRows(db->get(), path, *reading.pairKeys, *also.pairRows,
                reading.pairTexts ? &also.pairTexts : nullptr, also.pairsError))
            also.pairRows.reset();
    }
    if (reading.pathGraph) {
        also.path.emplace();
        const int64_t rows = also.pairRows ? int64_t(also.pairRows->size()) : -1;
        if (!readStoredPath(db->get(), path, *meta, rows, *also.path, also.pathError))
            also.path.reset();
    }
    return rank;
}

PathRankGraph pathOfStep(StoredRankPath stored, const RankSource &rank, int64_t step)
{
    PathRankGraph out;
    const int64_t wanted = rank.steps.empty() ? kNoValue : step;
    if (wanted != kNoValue
        && std::find(rank.steps.begin(), rank.steps.end(), step) == rank.steps.end())
        out.problem = missingStepProblem(step);
    else if (stored.step != wanted)
        out.problem = "its database holds the path graph of " + stepText(stored.step) + ", not of "
            + stepText(wanted) + ": digest its trace again"
            + (step == kNoValue ? std::string()
                                : " with --critical-path-step " + std::to_string(step));
    else
        out = std::move(stored.graph);
    return out;
}

bool readPathGraph(const RankSource &rank, int64_t step, PathRankGraph &out, std::string &error)
{
    if (!rank.steps.empty()
        && std::find(rank.steps.begin(), rank.steps.end(), step) == rank.steps.end()) {
        out.problem = missingStepProblem(step); // no need to read a graph that cannot serve
        return true;
    }
    const std::string &path = rank.database;
    const auto db = ReadingDb::open(path, error);
    const auto meta = db ? readMeta(db->get(), path, error) : std::nullopt;
    StoredRankPath stored;
    if (!meta || !readStoredPath(db->get(), path, *meta, -1, stored, error))
        return false;
    out = pathOfStep(std::move(stored), rank, step);
    return true;
}

} // namespace ks
