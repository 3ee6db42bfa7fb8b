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
    kind: str, input_columns: List[str], column: str, prefix: str, any_case: bool = False
) -> Tuple[List[Tuple[str, str]], str, str]:
    """The columns to add to a frame whose columns are `input_columns`:
    (result column, output name) pairs, every column of `kind`'s table but
    `index` (the position within one batch, replaced by `row`), and
    `puzzle` when the input column itself is called so (the same puzzle);
    then the names of the `source` and `row` columns. Every added name gets
    `prefix`. With `any_case` (Spark, whose names are case-insensitive
    unless spark.sql.caseSensitive is set) an input column named so in
    another case takes a name too (`Status` takes `status`).

    Raises ValueError when `column` is missing or an added name is taken
    by an input column (the input's column would be lost: Dask's assignment
    replaced it, Spark's job failed on the two columns of one name).
    """
    if column not in input_columns:
        raise ValueError(f"no column {column!r} among {input_columns}")
    out = []
    for name in empty_table(kind).column_names:
        if name == "index" or (name == "puzzle" and column == "puzzle" and not prefix):
            continue
        out.append((name, prefix + name))
    source, row = prefix + "source", prefix + "row"
    fold = (lambda name: name.casefold()) if any_case else (lambda name: name)
    taken = {fold(c): c for c in input_columns}
    for new in [new for _, new in out] + [source, row]:
        if fold(new) in taken:
            raise ValueError(
                f"the column {new!r} that sudoflow adds is taken by an input column "
                f"({taken[fold(new)]!r}): pass prefix= (e.g. prefix='sudoflow_', which every "
                f"added column gets)"
            )
    return out, source, row


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
