#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The map step of a large run, on one machine (docs/cli.md, "Past one machine"):
#   tools/digest-run.sh DIR OUTDIR [JOBS]
# writes OUTDIR/NAME.sqlite (kinetoscope --export-db) for every trace file NAME in DIR, JOBS
# processes at a time (default: the cores there are), one process per rank file. A rank that
# fails is listed with its exit code (docs/cli.md) and never stops the others. Then, when python3
# is there, OUTDIR/ranks.sqlite gathers every rank's own tables (pairs, kernels, steps, summary,
# ..., each row led by its rank) for queries over the whole run.
# Exit status: 0 when every rank was digested, else the largest exit code of a rank.
# KINETOSCOPE names the program (default: kinetoscope on PATH, else this tree's release build).
set -uo pipefail

if (($# < 2 || $# > 3)); then
    echo "usage: tools/digest-run.sh DIR OUTDIR [JOBS]" >&2
    exit 1
fi
dir=$1 out=$2 jobs=${3:-$(nproc)}
if [[ ! -d $dir ]]; then
    echo "digest-run: $dir: not a folder" >&2
    exit 1
fi
program=${KINETOSCOPE:-$(command -v kinetoscope || echo "$(dirname "$0")/../build/release/app/kinetoscope")}
mkdir -p "$out" || exit 3

# One line per rank file: "CODE FILE"; a failure's message goes to OUTDIR/NAME.log.
digest() {
    local file=$1 name
    name=$(basename "$file")
    name=${name%.gz}
    name=${name%.json}
    "$program" --export-db "$out/$name.sqlite" "$file" 2>"$out/$name.log"
    echo "$? $file"
}
export -f digest
export program out

results=$(find "$dir" -maxdepth 1 -type f \( -name '*.json' -o -name '*.json.gz' \) -print0 |
    sort -z | xargs -0 -r -n 1 -P "$jobs" bash -c 'digest "$1"' _)
if [[ -z $results ]]; then
    echo "digest-run: no *.json or *.json.gz trace in $dir" >&2
    exit 2
fi

status=0 done=0
while read -r code file; do
    if ((code == 0)); then
        done=$((done + 1))
    else
        echo "digest-run: $file: exit $code (see its .log in $out)" >&2
        ((code > status)) && status=$code
    fi
done <<<"$results"
echo "digest-run: $done of $(wc -l <<<"$results") rank file(s) digested into $out"

if command -v python3 >/dev/null; then
    python3 - "$out" <<'EOF'
import glob, os, sqlite3, sys
out = sys.argv[1]
target = os.path.join(out, "ranks.sqlite")
parts = sorted(p for p in glob.glob(os.path.join(out, "*.sqlite")) if p != target)
if os.path.exists(target):
    os.remove(target)
db = sqlite3.connect(target)
seen = {}  # rank -> the database that had it
tables = set()
for part in parts:
    db.execute("ATTACH ? AS part", (part,))
    for (rank,) in db.execute("SELECT rank FROM part.meta WHERE key = 'source_file'"):
        if rank in seen:
            print(f"digest-run: rank {rank} is in both {seen[rank]} and {part}"
                  " (traces without distributedInfo are all rank 0)", file=sys.stderr)
        seen[rank] = part
    for (t,) in db.execute("SELECT name FROM part.sqlite_schema WHERE type = 'table'"):
        columns = [c[1] for c in db.execute(f"PRAGMA part.table_info('{t}')")]
        if "rank" not in columns or t in ("ranks", "critical_path"):
            continue  # the run's own tables: a run of one rank here
        db.execute(f'CREATE TABLE IF NOT EXISTS "{t}" AS SELECT * FROM part."{t}" WHERE 0')
        db.execute(f'INSERT INTO "{t}" SELECT * FROM part."{t}" WHERE rank IS NOT NULL')
        tables.add(t)
    db.commit()
    db.execute("DETACH part")
for t in sorted(tables):
    db.execute(f'CREATE INDEX "ix_{t}_rank" ON "{t}" (rank)')
db.commit()
db.close()
print(f"digest-run: {len(parts)} database(s) gathered into {target}")
EOF
fi
exit "$status"
