//! `--format csv|jsonl|parquet` through the binary (issue 16, part 3): the
//! typed formats hold the CSV's values (read back with the parquet crate and
//! serde_json), `-o`'s extension picks the format, a stopped Parquet run
//! leaves a readable `FILE.partial`, and `--resume` of a typed run is
//! refused. (pyarrow and polars read the same files in
//! python/tests/test_formats.py.)

use arrow_array::{Array, Float64Array, Int64Array, RecordBatch, StringArray};
use assert_cmd::Command;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use std::path::Path;
use sudoflow::datasets;

fn sudoflow() -> Command {
    Command::cargo_bin("sudoflow").unwrap()
}

/// The CSV's rows as text fields, header first.
fn csv_rows(path: &Path) -> Vec<Vec<String>> {
    let mut rdr = csv::ReaderBuilder::new()
        .has_headers(false)
        .from_path(path)
        .unwrap();
    rdr.records()
        .map(|r| r.unwrap().iter().map(str::to_string).collect())
        .collect()
}

/// A Parquet file's rows written back as the CSV writes them (null as
/// empty), header first.
fn parquet_rows(path: &Path) -> Vec<Vec<String>> {
    let file = std::fs::File::open(path).unwrap();
    let reader = ParquetRecordBatchReaderBuilder::try_new(file)
        .unwrap()
        .build()
        .unwrap();
    let mut rows = Vec::new();
    for batch in reader {
        let batch: RecordBatch = batch.unwrap();
        if rows.is_empty() {
            rows.push(
                batch
                    .schema()
                    .fields()
                    .iter()
                    .map(|f| f.name().clone())
                    .collect(),
            );
        }
        for i in 0..batch.num_rows() {
            rows.push(
                batch
                    .columns()
                    .iter()
                    .map(|col| {
                        if col.is_null(i) {
                            return String::new();
                        }
                        if let Some(a) = col.as_any().downcast_ref::<Int64Array>() {
                            a.value(i).to_string()
                        } else if let Some(a) = col.as_any().downcast_ref::<Float64Array>() {
                            a.value(i).to_string()
                        } else {
                            let a = col.as_any().downcast_ref::<StringArray>().unwrap();
                            a.value(i).to_string()
                        }
                    })
                    .collect(),
            );
        }
    }
    rows
}

/// Compares typed rows with the CSV's, floats by value.
fn assert_same(csv: &[Vec<String>], other: &[Vec<String>], what: &str) {
    assert_eq!(csv.len(), other.len(), "{what}: rows");
    assert_eq!(csv[0], other[0], "{what}: header");
    for (r, (a, b)) in csv.iter().zip(other).enumerate().skip(1) {
        for (c, (x, y)) in a.iter().zip(b).enumerate() {
            let same =
                x == y || matches!((x.parse::<f64>(), y.parse::<f64>()), (Ok(p), Ok(q)) if p == q);
            assert!(
                same,
                "{what}: row {r}, column {}: {x:?} vs {y:?}",
                csv[0][c]
            );
        }
    }
}

fn top1465() -> std::path::PathBuf {
    datasets::public_path(datasets::TOP1465).expect("make datasets")
}

#[test]
fn parquet_and_jsonl_hold_the_csv_values_and_the_extension_picks_the_format() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.txt");
    let mut text = std::fs::read_to_string(top1465()).unwrap();
    text.push_str("not,a \"puzzle\"\n5....5...........................................................................\n");
    std::fs::write(&input, text).unwrap();
    let csv_out = dir.path().join("out.csv");
    let pq_out = dir.path().join("out.parquet");
    let jsonl_out = dir.path().join("out.jsonl");
    for out in [&csv_out, &pq_out, &jsonl_out] {
        sudoflow()
            .args(["solve", "-q", "-j", "2"])
            .arg(&input)
            .arg("-o")
            .arg(out)
            .assert()
            .success();
    }
    let csv = csv_rows(&csv_out);
    assert_eq!(csv.len(), 1 + 1465 + 2);
    assert!(std::fs::read(&pq_out).unwrap().starts_with(b"PAR1"));
    assert_same(&csv, &parquet_rows(&pq_out), "parquet");
    let json: Vec<Vec<String>> = std::fs::read_to_string(&jsonl_out)
        .unwrap()
        .lines()
        .map(|l| {
            let v: serde_json::Map<String, serde_json::Value> = serde_json::from_str(l).unwrap();
            assert_eq!(v.len(), csv[0].len());
            // Keys in the header's order (the map sorts them: look in the text).
            let at: Vec<usize> = csv[0]
                .iter()
                .map(|k| l.find(&format!("\"{k}\":")).unwrap())
                .collect();
            assert!(at.windows(2).all(|w| w[0] < w[1]), "{l}");
            csv[0]
                .iter()
                .map(|k| match &v[k] {
                    serde_json::Value::Null => String::new(),
                    serde_json::Value::String(s) => s.clone(),
                    other => other.to_string(),
                })
                .collect()
        })
        .collect();
    let mut with_header = vec![csv[0].clone()];
    with_header.extend(json);
    assert_same(&csv, &with_header, "jsonl");
    // --format wins over the extension.
    let forced = dir.path().join("forced.parquet");
    sudoflow()
        .args(["count", "-q", "--format", "csv"])
        .arg(top1465())
        .arg("-o")
        .arg(&forced)
        .assert()
        .success();
    assert!(std::fs::read_to_string(&forced)
        .unwrap()
        .starts_with("index,puzzle,status,solutions,error\n"));
    sudoflow()
        .args(["solve", "--format", "xml"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("expected csv, jsonl or parquet"));
}

#[test]
fn a_stopped_parquet_run_leaves_a_readable_partial_file_and_cannot_resume() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(
        datasets::public_path(datasets::SEVENTEEN_CLUE).expect("make datasets"),
    )
    .unwrap();
    let input = dir.path().join("big.txt");
    std::fs::write(&input, text.repeat(20)).unwrap();
    let out = dir.path().join("out.parquet");
    let partial = dir.path().join("out.parquet.partial");
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("sudoflow"))
        .args(["solve", "-q", "-j", "2"])
        .arg(&input)
        .arg("-o")
        .arg(&out)
        .spawn()
        .unwrap();
    // Past the first row group (65,536 rows): the file has data.
    for _ in 0..4000 {
        if std::fs::metadata(&partial).is_ok_and(|m| m.len() > 100_000) {
            break;
        }
        assert!(
            child.try_wait().unwrap().is_none(),
            "ended before the signal"
        );
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    let ok = std::process::Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap()
        .success();
    assert!(ok);
    assert_eq!(child.wait().unwrap().code(), Some(143));
    assert!(!out.exists());
    let rows = parquet_rows(&partial);
    assert!(rows.len() > 65_536, "{} rows", rows.len());
    // Every row kept is whole and in order.
    for (k, row) in rows.iter().enumerate().skip(1) {
        assert_eq!(row[0], k.to_string());
        assert_eq!(row[2], "unique");
    }
    sudoflow()
        .args(["solve", "-q"])
        .arg(&input)
        .arg("-o")
        .arg(&out)
        .arg("--resume")
        .assert()
        .code(2)
        .stderr(predicates::str::contains("cannot be resumed"));
}
