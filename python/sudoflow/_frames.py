"""What the Spark and Dask adapters share: which function, which columns."""

from typing import Any, Callable, Dict, List, Tuple

from . import _sudoflow

KINDS: Dict[str, Callable[..., Any]] = {
    "solve": _sudoflow.solve,
    "rate": _sudoflow.rate,
    "count": _sudoflow.count,
}


def result_columns(
    kind: str, input_columns: List[str], column: str, prefix: str
) -> List[Tuple[str, str]]:
    """(result column, output name) pairs to add to a frame whose columns are
    `input_columns`: every column of `kind`'s table but `index` (the position
    within one batch, replaced by `row`), and `puzzle` when the input column
    itself is called so (the same puzzle); names get `prefix`.

    Raises ValueError when a name is taken by an input column.
    """
    if column not in input_columns:
        raise ValueError(f"no column {column!r} among {input_columns}")
    out = []
    for name in empty_table(kind).column_names:
        if name == "index" or (name == "puzzle" and column == "puzzle" and not prefix):
            continue
        new = prefix + name
        if new in input_columns or new in ("source", "row"):
            raise ValueError(
                f"the result column {new!r} is taken by an input column: pass prefix= "
                f"(e.g. prefix='sudoflow_')"
            )
        out.append((name, new))
    return out


def empty_table(kind: str):
    """kind's result table for no input: its schema."""
    import pyarrow as pa

    return pa.table(KINDS[kind]([]))


# A row number is (partition number << ROW_BITS) + position within the
# partition: increasing with position within each file when the engine's
# partitions of a file follow the file's order (as Spark's
# monotonically_increasing_id uses the same layout).
ROW_BITS = 33
