// SPDX-License-Identifier: MIT
#include "session/runparquet.h"

#include "base/version.h"
#include "export/celltable.h"
#include "export/columnunits.h"
#include "export/criticalpathtables.h"
#include "export/parquetwriter.h"
#include "export/tableview.h"
#include "session/ranktables.h"

#include <filesystem>
#include <map>
#include <system_error>

namespace ks {

namespace {

//! Writes \a table as DIR/NAME/PART/part-0.parquet, each column named with its unit; notes its
//! columns for `_schema`.
class ParquetFolder {
public:
    explicit ParquetFolder(std::string dir)
        : m_dir(std::move(dir))
    {
    }

    bool write(std::string_view name,
        const std::string &part,
        const Table &table,
        const std::function<bool(size_t)> &keep = {},
        std::string_view dropped = {})
    {
        const TableView view(
            table, keep, dropped, [](const ColumnSpec &c) { return nameWithUnit(c.name, c.cell); });
        std::vector<std::pair<std::string, std::string>> &columns = m_columns[std::string(name)];
        if (columns.empty())
            for (const ColumnSpec &c : table.columns())
                if (c.name != dropped)
                    columns.emplace_back(nameWithUnit(c.name, c.cell), columnUnit(c.name, c.cell));
        std::filesystem::path folder = std::filesystem::path(m_dir) / name;
        if (!part.empty())
            folder /= part;
        std::error_code ec;
        std::filesystem::create_directories(folder, ec);
        if (ec) {
            m_error = folder.string() + ": " + ec.message();
            return false;
        }
        return writeParquet(view, (folder / "part-0.parquet").string(), m_error);
    }

    //! `_schema`: the format, and each table written with its columns and their units.
    bool writeSchema()
    {
        CellTable schema;
        schema.addColumn("format_version", Cell::Integer, {});
        schema.addColumn("tool_version", Cell::Text, {});
        schema.addColumn("table_name", Cell::Text, {});
        schema.addColumn("column_name", Cell::Text, {});
        schema.addColumn("unit", Cell::TextOrEmpty, {});
        for (const auto &[table, columns] : m_columns)
            for (const auto &[column, unit] : columns) {
                schema.addRow();
                schema.add(std::to_string(kParquetFormat));
                schema.add(KINETOSCOPE_VERSION);
                schema.add(table);
                schema.add(column);
                schema.add(unit);
            }
        return write("_schema", {}, schema);
    }

    const std::string &error() const { return m_error; }

private:
    std::string m_dir;
    std::map<std::string, std::vector<std::pair<std::string, std::string>>> m_columns;
    std::string m_error;
};

CellTable metaTable(const std::vector<std::pair<std::string, std::string>> &rows)
{
    CellTable meta;
    meta.addColumn("key", Cell::Text, {});
    meta.addColumn("value", Cell::TextOrEmpty, {});
    for (const auto &[key, value] : rows) {
        meta.addRow();
        meta.add(key);
        meta.add(value);
    }
    return meta;
}

} // namespace

bool writeRunParquet(const Run &run,
    const std::string &dir,
    const PathQuery &query,
    const std::function<std::string(const std::string &file)> &sha256,
    std::string &error)
{
    const auto analysis = run.criticalPath(query, &error);
    if (!analysis)
        return false;
    const CellTable segments = criticalSegmentTable(*analysis);
    const int rankColumn = segments.columnIndex("rank");
    ParquetFolder folder(dir);
    bool written = true;
    for (size_t i = 0; i < run.ranks.size() && written; ++i) {
        const std::string rank = std::to_string(run.ranks[i].rank);
        const std::string part = "rank=" + rank;
        forEachRankTable(*run.sources[i], [&](std::string_view name, const Table &table) {
            written = written && folder.write(name, part, table);
        });
        written = written
            && folder.write(
                "critical_path", part, segments,
                [&](size_t row) { return segments.text(row, size_t(rankColumn)) == rank; }, "rank")
            && folder.write("meta", part, metaTable(rankMeta(run, i, sha256(run.ranks[i].file))));
    }
    written = written && folder.writeSchema();
    if (!written)
        error = folder.error();
    return written;
}

} // namespace ks
