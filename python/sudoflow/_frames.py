"""What the Spark and Dask adapters share: which function, which columns,
and the naming of each record by its source and row."""

from typing import Any, Callable, Dict, List, Tuple

from . import _sudoflow

KINDS: Dict[str, Callable[..., Any]] = {
    "solve": _sudoflow.solve,
    "rate": _sudoflow.rate,
    "count": _sudoflow.count,
}

# How to keep puzzles as text, for the errors about a column of another type.
AS_TEXT = (
    "puzzles must be read as text: a puzzle read as a number loses the leading zeros of its "
    "0 blanks"
)


def result_columns(
    kind: str, input_columns: List[str], column: str, prefix: str
) -> List[Tuple[str, str]]:
    """(result column, output name) pairs to add to a frame whose columns are
    `input_columns`: every column of `kind`'s table but `index` (the position
    within one batch, replaced by `row`), and `puzzle` when the input column
    itself is called so (the same puzzle); names get `prefix`.

    Raises ValueError when `column` is missing or a name is taken by an
    input column.
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


def empty_table(kind: str) -> Any:
    """kind's result table for no input: its schema."""
    return KINDS[kind]([])


def named(puzzles: Any, sources: Any, rows: Any) -> Any:
    """Puzzles whose errors name each record by its source and row (the
    adapters' `source` and `row` columns: "a.csv row 8589934593: ...")
    instead of its position within the batch."""
    return _sudoflow._Named(puzzles, sources, rows)


# A row number is (partition number << ROW_BITS) + position within the
# partition: increasing with position within each file when the engine's
# partitions of a file follow the file's order (as Spark's
# monotonically_increasing_id uses the same layout).
ROW_BITS = 33
