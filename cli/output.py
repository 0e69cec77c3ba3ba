"""Result files: rows as parquet, provenance as JSON in the parquet schema metadata."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

METADATA_KEY = b"boardsim"


def _json_default(value: Any) -> Any:
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, (set, frozenset)):
        return sorted(value)
    if isinstance(value, Path):
        return str(value)
    return str(value)


def provenance_json(df: pd.DataFrame) -> str:
    return json.dumps(df.attrs.get("provenance", {}), default=_json_default, sort_keys=True)


def write_parquet(df: pd.DataFrame, path: str | Path) -> Path:
    """Write the rows; store `df.attrs["provenance"]` under the schema metadata key b"boardsim".

    The attrs are also stored the way pandas does it (key b"PANDAS_ATTRS"), so `pd.read_parquet`
    gives the provenance back in `df.attrs` as well.
    """
    import pyarrow as pa
    import pyarrow.parquet as pq

    path = Path(path)
    table = pa.Table.from_pandas(df, preserve_index=False)
    prov = provenance_json(df)
    metadata = dict(table.schema.metadata or {})
    metadata[METADATA_KEY] = prov.encode()
    metadata[b"PANDAS_ATTRS"] = json.dumps(
        {**df.attrs, "provenance": json.loads(prov)}, default=_json_default
    ).encode()
    pq.write_table(table.replace_schema_metadata(metadata), path)
    return path


def read_parquet(path: str | Path) -> pd.DataFrame:
    """Read a file written by `write_parquet`; the provenance is in `attrs["provenance"]`."""
    import pyarrow.parquet as pq

    table = pq.read_table(path)
    df = table.to_pandas()
    raw = (table.schema.metadata or {}).get(METADATA_KEY)
    df.attrs["provenance"] = json.loads(raw) if raw else {}
    return df
