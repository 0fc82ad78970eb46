#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The map step of a large run, on one machine (docs/cli.md, "Past one machine"):
#   tools/digest-run.sh DIR OUTDIR [JOBS] [-- OPTION...]
# writes OUTDIR/FILE.sqlite (kinetoscope --export-db [OPTION...]) for every trace FILE (*.json,
# *.json.gz) in DIR, JOBS processes at a time (default: the cores there are), one process per rank
# file; the OPTIONs after -- go to each (--critical-path-step N, --data-loading PATTERN). A rank
# that fails is listed with its exit code (docs/cli.md) and its message in OUTDIR/FILE.log, and
# never stops the others; a rank whose trace was read in part is digested and listed with what
# its load lost. Then, when python3 is there, OUTDIR/ranks.sqlite gathers the rank tables of this
# run's databases (pairs, kernels, steps, summary, ..., each row led by its rank) for queries
# over the whole run. What an earlier digest left of these files is removed first; an OUTDIR
# holding databases of other traces is refused (exit 1).
# Exit status: 0 when every rank was digested and gathered, else the largest exit code of a rank,
# or 4 when the gathering failed. KINETOSCOPE names the program (default: kinetoscope on PATH,
# else this tree's release build).
set -uo pipefail

usage() {
    echo "usage: tools/digest-run.sh DIR OUTDIR [JOBS] [-- OPTION...]" >&2
    exit 1
}
positional=()
while (($#)) && [[ $1 != -- ]]; do
    positional+=("$1")
    shift
done
(($#)) && shift # the --: what follows goes to each --export-db
options=("$@")
((${#positional[@]} >= 2 && ${#positional[@]} <= 3)) || usage
dir=${positional[0]} out=${positional[1]} jobs=${positional[2]:-$(nproc)}
if [[ ! -d $dir ]]; then
    echo "digest-run: $dir: not a folder" >&2
    exit 1
fi
program=${KINETOSCOPE:-$(command -v kinetoscope || echo "$(dirname "$0")/../build/release/app/kinetoscope")}
mkdir -p "$out" || exit 3

# Only what this run writes may be in OUTDIR afterwards, or a run opened from it would read a
# database of an earlier digest as current: each trace's database and log, and the gathered
# ranks.sqlite, are removed before the digest that writes them again, and any other database
# there (of a trace no longer in DIR) is refused.
mapfile -d '' traces < <(find -L "$dir" -maxdepth 1 -type f \( -name '*.json' -o -name '*.json.gz' \) -print0 | sort -z)
if ((${#traces[@]} == 0)); then
    echo "digest-run: no *.json or *.json.gz trace in $dir" >&2
    exit 2
fi
declare -A ours=([ranks.sqlite]=1)
for file in "${traces[@]}"; do
    ours[$(basename "$file").sqlite]=1
done
others=()
for db in "$out"/*.sqlite; do
    [[ -e $db && -z ${ours[$(basename "$db")]:-} ]] && others+=("$db")
done
if ((${#others[@]})); then
    echo "digest-run: $out holds databases this run does not write (${others[*]}): a run opened" \
        "from it would read them too; remove them or choose another folder" >&2
    exit 1
fi
for file in "${traces[@]}"; do
    rm -f "$out/$(basename "$file").sqlite" "$out/$(basename "$file").log"
done
rm -f "$out/ranks.sqlite"

# One line per rank file: "CODE<TAB>FILE". The database is named after the whole file name, so
# a.json and a.json.gz never share one, and none is called ranks.sqlite. The options come first,
# the file (from xargs) last.
digest() {
    local file=${!#} name
    name=$(basename "$file")
    "$program" --export-db "$out/$name.sqlite" "${@:1:$#-1}" "$file" 2>"$out/$name.log"
    printf '%s\t%s\n' "$?" "$file"
}
export -f digest
export program out

results=$(printf '%s\0' "${traces[@]}" | xargs -0 -r -n 1 -P "$jobs" bash -c 'digest "$@"' _ "${options[@]}")

status=0
digested=()
while IFS=$'\t' read -r code file; do
    if ((code == 0)); then
        digested+=("$out/$(basename "$file").sqlite")
        # A rank read in part is digested, and named with what its load lost.
        grep -h -o 'data lost: .*' "$out/$(basename "$file").log" | sed "s|^|digest-run: $file: |" >&2
    else
        echo "digest-run: $file: exit $code (see $out/$(basename "$file").log)" >&2
        ((code > status)) && status=$code
    fi
done <<<"$results"
echo "digest-run: ${#digested[@]} of $(wc -l <<<"$results") rank file(s) digested into $out"

if ((${#digested[@]})) && command -v python3 >/dev/null; then
    python3 - "$out/ranks.sqlite" "${digested[@]}" <<'EOF' || status=$((status > 4 ? status : 4))
import os, sqlite3, sys
target, parts = sys.argv[1], sys.argv[2:]
temp = target + ".part"
if os.path.exists(temp):
    os.remove(temp)
db = sqlite3.connect(temp)
quote = lambda name: '"' + name.replace('"', '""') + '"'
seen = {}  # rank -> the database that had it
tables = set()
for part in parts:
    db.execute("ATTACH ? AS part", (part,))
    for (rank,) in db.execute("SELECT CAST(rank AS INTEGER) FROM part.meta"
                              " WHERE key = 'source_file'"):
        if rank in seen:
            print(f"digest-run: rank {rank} is in both {seen[rank]} and {part}"
                  " (traces without distributedInfo are all rank 0)", file=sys.stderr)
        seen[rank] = part
    # What a user reads: the views of a database of format 2 (their texts joined back from its
    # strings table), the tables of format 1; gathered as plain tables.
    names = [t for (t,) in db.execute("SELECT name FROM part.sqlite_master WHERE type IN"
                                      " ('table', 'view') AND name != 'strings'"
                                      " AND name NOT LIKE '%!_rows' ESCAPE '!'")]
    for t in names:
        columns = [c for (c,) in db.execute("SELECT name FROM pragma_table_info(?, 'part')", (t,))]
        if "rank" not in columns or t in ("ranks", "critical_path", "collective_ranks",
                                          "rank_pair_ranks"):
            continue  # the run's own tables: a run of one rank here
        db.execute(f"CREATE TABLE IF NOT EXISTS {quote(t)} AS SELECT * FROM part.{quote(t)} WHERE 0")
        db.execute(f"INSERT INTO {quote(t)} SELECT * FROM part.{quote(t)} WHERE rank IS NOT NULL")
        tables.add(t)
    db.commit()
    db.execute("DETACH part")
for t in sorted(tables):
    db.execute(f"CREATE INDEX {quote('ix_' + t + '_rank')} ON {quote(t)} (rank)")
# Marked as gathered, so that a run opened from the folder leaves it out.
db.executemany("INSERT INTO meta (rank, key, value) VALUES (NULL, ?, ?)",
               [("format_version", 1), ("rank_count", len(seen)), ("gathered_from", len(parts))])
db.commit()
db.close()
os.replace(temp, target)
print(f"digest-run: {len(parts)} database(s) gathered into {target}")
EOF
fi
exit "$status"
