from typing import Any

import pandas

from ._sudoflow import (
    CANON_COLUMNS as CANON_COLUMNS,
    COUNT_COLUMNS as COUNT_COLUMNS,
    RATE_COLUMNS as RATE_COLUMNS,
    SOLVE_COLUMNS as SOLVE_COLUMNS,
    Grid as Grid,
    canon as canon,
    canon_file as canon_file,
    count as count,
    count_file as count_file,
    explain as explain,
    generate as generate,
    is_valid as is_valid,
    parse as parse,
    rate as rate,
    rate_file as rate_file,
    solution as solution,
    solve as solve,
    solve_file as solve_file,
)

def to_pandas(result: Any) -> pandas.DataFrame: ...
