//! Checking the keyword arguments shared by the functions: each error is a
//! `ValueError` naming the parameter, the value and what it takes, as the
//! CLI names its option.

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes};
use std::ops::RangeInclusive;
use std::path::PathBuf;
use std::time::Duration;
use sudoflow::generator::Symmetry;
use sudoflow::solver::Prune;

/// An integer argument: any Python int up to 2^127 as an `i128`, so that a
/// negative or a too large value is a `ValueError` naming the parameter,
/// not pyo3's `OverflowError`. A bool is taken here but refused when the
/// value is read ([`Int::get`], which knows the parameter's name; found by
/// probing: `True`, an int to Python, was taken as 1 for limit, seed,
/// threads, n, batch_rows).
#[derive(Clone, Copy, Debug)]
pub struct Int {
    value: i128,
    boolean: bool,
}

impl Int {
    /// A default value.
    pub const fn of(value: i128) -> Int {
        Int {
            value,
            boolean: false,
        }
    }

    /// The value of parameter `name`.
    ///
    /// Errors: `TypeError` naming `name` for a bool.
    pub fn get(self, name: &str) -> PyResult<i128> {
        if self.boolean {
            return Err(not_bool(name, "an int", self.value != 0));
        }
        Ok(self.value)
    }
}

impl<'a, 'py> FromPyObject<'a, 'py> for Int {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        Ok(Int {
            value: obj.extract::<i128>()?,
            boolean: obj.is_instance_of::<PyBool>(),
        })
    }
}

/// A number argument (seconds, a rating): a Python float or int; a bool is
/// refused when the value is read ([`Real::get`]; found by probing:
/// `time_budget=True` was one second).
#[derive(Clone, Copy, Debug)]
pub struct Real {
    value: f64,
    boolean: bool,
}

impl Real {
    /// The value of parameter `name`.
    ///
    /// Errors: `TypeError` naming `name` for a bool.
    pub fn get(self, name: &str) -> PyResult<f64> {
        if self.boolean {
            return Err(not_bool(name, "a number", self.value != 0.0));
        }
        Ok(self.value)
    }
}

impl<'a, 'py> FromPyObject<'a, 'py> for Real {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        Ok(Real {
            value: obj.extract::<f64>()?,
            boolean: obj.is_instance_of::<PyBool>(),
        })
    }
}

/// The error for a bool given as parameter `name`, which takes `what`.
pub fn not_bool(name: &str, what: &str, value: bool) -> PyErr {
    PyTypeError::new_err(format!(
        "{name} must be {what}, not a bool ({})",
        if value { "True" } else { "False" }
    ))
}

/// `value` of parameter `name` as a `u64` of at least `min`.
///
/// Errors: `ValueError` naming `name` for a value below `min` or above
/// 2^64 - 1.
pub fn natural(name: &str, value: Int, min: u64) -> PyResult<u64> {
    let value = value.get(name)?;
    if value < i128::from(min) {
        return Err(PyValueError::new_err(format!(
            "{name} must be at least {min}, not {value}"
        )));
    }
    u64::try_from(value).map_err(|_| {
        PyValueError::new_err(format!(
            "{name} must be at most 2**64 - 1 (18446744073709551615), not {value}"
        ))
    })
}

/// The worker threads for `threads` (`None`: every core the process may
/// use), at most the CLI's `-j` takes ([`sudoflow::threads::max_threads`]).
///
/// Errors: `ValueError` for a value below 1 or above that.
pub fn threads(value: Option<Int>) -> PyResult<usize> {
    let Some(value) = value else {
        return Ok(sudoflow::threads::cores());
    };
    let value = value.get("threads")?;
    let max = sudoflow::threads::max_threads();
    if value < 1 || value > max as i128 {
        return Err(PyValueError::new_err(format!(
            "threads must be between 1 and {max} (4 per core, at least 16), not {value}; \
             None: all cores"
        )));
    }
    Ok(value as usize)
}

/// A time budget in seconds (`None`: none).
///
/// Errors: `ValueError` naming `name` for a value that is not a positive,
/// finite number of seconds, or that is below a nanosecond (a duration
/// holds whole nanoseconds: it would round to none, as the CLI's
/// `--time-budget 1e-10` does, which says it must be above zero).
pub fn seconds(secs: Option<Real>, name: &str) -> PyResult<Option<Duration>> {
    let Some(s) = secs.map(|s| s.get(name)).transpose()? else {
        return Ok(None);
    };
    Some(match Duration::try_from_secs_f64(s) {
        Ok(d) if !d.is_zero() => Ok(d),
        // Found by probing: 1e-10 was said to be too long a duration.
        Ok(_) if s > 0.0 => Err(PyValueError::new_err(format!(
            "{name}: a time budget must be above zero: {s} seconds rounds to 0 (durations are \
             whole nanoseconds; the least is 1e-9)"
        ))),
        // As the CLI says it (1e20, inf).
        Err(_) if s > 0.0 => Err(PyValueError::new_err(format!(
            "{name} is too long a duration: the longest is about 584 billion years"
        ))),
        _ => Err(PyValueError::new_err(format!(
            "{name} must be a positive number of seconds, not {s}"
        ))),
    })
    .transpose()
}

/// `prune`: `basic`, `matching` or `matching-root`, spelled as `solve
/// --prune` takes them (found by probing: `"Basic"` and `"matching_root"`
/// were taken, which the CLI refuses).
pub fn prune(name: &str) -> PyResult<Prune> {
    Ok(match name {
        "basic" => Prune::Basic,
        "matching" => Prune::Matching,
        "matching-root" => Prune::MatchingRoot,
        _ => {
            return Err(PyValueError::new_err(format!(
                "prune {name:?}: expected \"basic\", \"matching\" or \"matching-root\""
            )))
        }
    })
}

/// `blank`: the character blanks are written as in the `puzzle` column (as
/// `solve --blank`).
pub fn blank(text: &str) -> PyResult<u8> {
    match text {
        "." | "0" | "_" | "-" | "*" | "x" | "X" => Ok(text.as_bytes()[0]),
        _ => Err(PyValueError::new_err(format!(
            "blank {text:?}: expected '.', '0', '_', '-', '*', 'x' or 'X' (what the reader \
             takes for a blank)"
        ))),
    }
}

/// `symmetry`: one of the names of `generate --symmetry`, spelled as it
/// takes them (found by probing: `"ROT180"` was taken, which the CLI
/// refuses).
pub fn symmetry(name: &str) -> PyResult<Symmetry> {
    Ok(match name {
        "none" => Symmetry::None,
        "rot180" => Symmetry::Rot180,
        "rot90" => Symmetry::Rot90,
        "mirror" => Symmetry::Mirror,
        "flip" => Symmetry::Flip,
        "diagonal" => Symmetry::Diagonal,
        "antidiagonal" => Symmetry::Antidiagonal,
        _ => {
            return Err(PyValueError::new_err(format!(
                "symmetry {name:?}: expected none, rot180, rot90, mirror, flip, diagonal or \
                 antidiagonal"
            )))
        }
    })
}

/// An inclusive range from `int`, `(lo, hi)` or the CLI's text (`"20..25"`).
///
/// Errors: `ValueError` naming `name` for anything else, or a range the
/// CLI refuses.
pub fn span<T>(
    value: Option<&Bound<'_, PyAny>>,
    parse: fn(&str) -> Result<RangeInclusive<T>, String>,
    name: &str,
) -> PyResult<Option<RangeInclusive<T>>> {
    let Some(v) = value else { return Ok(None) };
    let text = if let Ok(s) = v.extract::<String>() {
        s
    } else if let Ok(x) = v.extract::<Int>() {
        x.get(name)?.to_string()
    } else if let Ok((a, b)) = v.extract::<(Int, Int)>() {
        format!("{}..{}", a.get(name)?, b.get(name)?)
    } else {
        return Err(PyValueError::new_err(format!(
            "{name}: expected a number, a (min, max) pair or text such as \"20..25\""
        )));
    };
    parse(&text)
        .map(Some)
        .map_err(|e| PyValueError::new_err(format!("{name}: {e}")))
}

/// `obj`, parameter `name`, as paths: one path (str, `os.PathLike`, or
/// bytes, decoded as `os.fsdecode` does, as `open()` takes it) or an
/// iterable of them.
///
/// Errors: `TypeError` naming `name` for anything else; `ValueError` for an
/// empty path (found by probing: `""` was "cannot open input : No such
/// file", naming no parameter).
pub fn paths(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<Vec<PathBuf>> {
    let one = |p: &Bound<'_, PyAny>| -> PyResult<PathBuf> {
        if p.is_instance_of::<PyBytes>() {
            return p
                .py()
                .import("os")?
                .call_method1("fsdecode", (p,))?
                .extract();
        }
        p.extract()
    };
    let wrong = || {
        PyTypeError::new_err(format!(
            "{name}: expected a path (str, bytes or os.PathLike) or a sequence of them"
        ))
    };
    let paths: Vec<PathBuf> = match one(obj) {
        Ok(one) => vec![one],
        Err(_) => obj
            .try_iter()
            .map_err(|_| wrong())?
            .map(|p| one(&p?).map_err(|_| wrong()))
            .collect::<PyResult<_>>()?,
    };
    if paths.iter().any(|p| p.as_os_str().is_empty()) {
        return Err(PyValueError::new_err(format!(
            "{name}: an empty path (\"\") names no file"
        )));
    }
    Ok(paths)
}

/// A library message that names the CLI's flags, naming the Python
/// parameters instead (found by probing: "say which with --column",
/// "(--keep)", generate(se=0.5) said "--se 0.5..0.5").
pub fn python_words(message: &str) -> String {
    let mut out = message.to_owned();
    for (flag, parameter) in [
        ("--column", "column="),
        ("--keep", "keep="),
        ("--source", "source="),
        ("--symmetry ", "symmetry="),
        ("--clues ", "clues="),
        ("--se ", "se="),
    ] {
        out = out.replace(flag, parameter);
    }
    out
}
