// SPDX-License-Identifier: MIT
// An independent reader of --export-parquet's files (tests/cli/tst_parquet.cpp): DuckDB, from its
// npm package (@duckdb/node-api), runs SQL over the folder and prints the result as JSON —
// {"columns": [[name, type], …], "rows": [[cell, …], …]} — each cell as DuckDB reads it (null,
// a number, or text; whole numbers as text, so no digit is lost).
//   node readparquet.mjs NODE_MODULES_DIR SQL
import { createRequire } from 'node:module';
import path from 'node:path';

const [modules, sql] = process.argv.slice(2);
const require = createRequire(path.join(modules, 'x.js'));
const { DuckDBInstance } = require('@duckdb/node-api');
const db = await DuckDBInstance.create(':memory:');
const connection = await db.connect();
const reader = await connection.runAndReadAll(sql);
const types = reader.columnTypes().map((t) => t.toString());
console.log(JSON.stringify({
    columns: reader.columnNames().map((name, i) => [name, types[i]]),
    rows: reader.getRowsJson(),
}));
