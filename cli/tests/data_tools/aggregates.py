"""The aggregates events.gd computes with Godot's get_var loop, computed by DuckDB over the
Parquet file and the CSV file that `gdvariant export` wrote. Prints one JSON object per file:
python3 aggregates.py EVENTS.parquet EVENTS.csv"""
import json
import sys

import duckdb


def aggregates(relation, pos_x, zone, tags):
    con = duckdb.connect()
    row = con.sql(f"""
        select count(*), sum(hp), sum(score), sum({pos_x}), sum({zone}), sum({tags}),
               count(note), count(extra)
        from {relation}""").fetchall()[0]
    kinds = dict(con.sql(f"select kind, count(*) from {relation} group by kind").fetchall())
    return {"events": row[0], "hp": int(row[1]), "score": float(row[2]), "pos_x": float(row[3]),
            "zone": int(row[4]), "tags": int(row[5]), "notes": row[6], "extras": row[7],
            "kinds": kinds}


parquet, csv = sys.argv[1], sys.argv[2]
print(json.dumps(aggregates(f"read_parquet('{parquet}')", "pos.x", "meta.zone", "len(tags)")))
# CSV: struct fields are flattened into columns named by their paths, lists are JSON text.
print(json.dumps(aggregates(f"read_csv('{csv}', header = true)", '"pos/x"', '"meta/zone"',
                            "json_array_length(tags::JSON)")))
