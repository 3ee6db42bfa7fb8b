from ._sudoflow import (
    COUNT_COLUMNS as COUNT_COLUMNS,
    RATE_COLUMNS as RATE_COLUMNS,
    SOLVE_COLUMNS as SOLVE_COLUMNS,
    Grid as Grid,
    count as count,
    generate as generate,
    is_valid as is_valid,
    parse as parse,
    rate as rate,
    solution as solution,
    solve as solve,
    solve_file as solve_file,
)
