//! Zip archives as input (Kaggle ships its sets so): the members in the
//! order they lie in the archive, each a source named `ARCHIVE/MEMBER` with
//! its own lines and header; directories skipped. Members may be stored or
//! deflated (through flate2).
//!
//! A member's bytes are checked by their CRC-32 only once the member has been
//! read to its end, and a member damaged half-way decodes into records
//! before that. So an archive in a regular file (given by name, or on
//! standard input from one: `< a.zip`) is read member by member in two
//! passes: the first decompresses the member and checks its CRC, and only a
//! member that checks whole has its records read and handed on; a damaged
//! one stops the run (exit 2) with an error naming it, and no row comes
//! from it. (The first pass costs one more decompression of the archive.)
//! An archive read as a stream (a pipe) cannot be read twice: there, the
//! error names the rows that came from the damaged member, so that nobody
//! trusts them.

use super::{records_of, Item, Reading, BUFFER};
use anyhow::{bail, Context};
use std::fs::File;
use std::io::{self, BufRead, BufReader};
use std::ops::ControlFlow;
use std::sync::Arc;

/// The signatures a zip archive starts with: a local file header, or the
/// end of the central directory (an archive with no members).
const ZIP_MAGIC: [&[u8]; 2] = [b"PK\x03\x04", b"PK\x05\x06"];

/// Whether `head`, an input's first bytes, start a zip archive.
pub(super) fn is_zip(head: &[u8]) -> bool {
    ZIP_MAGIC.iter().any(|m| head.starts_with(m))
}

/// Standard input as a file, when it is a regular file read from its start
/// that holds a zip archive (`sudoflow solve < a.zip`), so that the archive
/// is read as one given by name (members checked first); `None` otherwise,
/// its offset untouched.
#[cfg(unix)]
pub(super) fn stdin_archive() -> Option<File> {
    use std::io::Seek;
    use std::os::fd::AsFd;
    use std::os::unix::fs::FileExt;
    let mut file = File::from(io::stdin().as_fd().try_clone_to_owned().ok()?);
    if !file.metadata().ok()?.is_file() || file.stream_position().ok()? != 0 {
        return None;
    }
    let mut head = [0u8; 4];
    let n = file.read_at(&mut head, 0).ok()?;
    is_zip(&head[..n]).then_some(file)
}

/// Elsewhere: standard input is read as a stream.
#[cfg(not(unix))]
pub(super) fn stdin_archive() -> Option<File> {
    None
}

/// The records of the zip archive in `file`, named `name`, numbered on from
/// `index`: each member's once its CRC-32 has checked (see the module's
/// documentation); breaks when `f` does.
///
/// Errors: the archive's directory does not read; a member cannot be read
/// (an unsupported compression method, encryption) or is damaged (its data
/// do not decompress, or its CRC-32 differs), named, no row coming from it;
/// those of [`records_of`] on a member.
pub(super) fn records_of_file(
    name: &Arc<str>,
    file: File,
    reading: &Reading,
    index: &mut u64,
    f: &mut impl FnMut(Item) -> ControlFlow<()>,
) -> anyhow::Result<ControlFlow<()>> {
    let (mut archive, members) = open_archive(name, file)?;
    let reading = Reading {
        watch: None,
        ..*reading
    };
    let first = *index;
    for (i, member) in members {
        // The first pass: decompressed to nowhere, which checks the CRC.
        let checked = io::copy(
            &mut open_member(&mut archive, i, name, &member)?,
            &mut io::sink(),
        );
        if let Err(e) = checked {
            let before = if *index > first {
                format!(
                    "; rows {}-{} came from the members before it, which checked whole",
                    first + 1,
                    *index
                )
            } else {
                String::new()
            };
            bail!(
                "cannot read zip archive {name}: its member {member} is damaged ({e}), found by \
                 checking it whole before reading its records, so no row comes from it{before}"
            );
        }
        let start = *index;
        let source: Arc<str> = Arc::from(format!("{name}/{member}"));
        let input: Box<dyn BufRead + '_> = Box::new(BufReader::with_capacity(
            BUFFER,
            open_member(&mut archive, i, name, &member)?,
        ));
        match records_of(&source, input, &reading, index, f) {
            Ok(ControlFlow::Continue(())) => {}
            Ok(ControlFlow::Break(())) => return Ok(ControlFlow::Break(())),
            // It checked, then failed: the file changed, or a read failed.
            Err(e) => return Err(untrusted(e, name, &member, start, *index, "")),
        }
    }
    Ok(ControlFlow::Continue(()))
}

/// The number of entries the central directory of the zip archive in
/// `file` lists, as its end record says (the zip64 one's when the 16-bit
/// count is full): `None` when no end record is found where it must lie
/// (the zip crate's own error then says what is wrong). The end record is
/// the last `PK\x05\x06` of the file's last 64 KiB + 22 bytes whose
/// comment length reaches the file's end exactly (APPNOTE.TXT 4.3.16).
fn directory_entries(file: &File) -> Option<u64> {
    use std::os::unix::fs::FileExt;
    let len = file.metadata().ok()?.len();
    let tail_len = len.min(22 + 0xFFFF);
    let mut tail = vec![0u8; tail_len as usize];
    file.read_exact_at(&mut tail, len - tail_len).ok()?;
    let u16_at = |b: &[u8], at: usize| u16::from_le_bytes([b[at], b[at + 1]]);
    let end = (0..=tail.len().checked_sub(22)?).rev().find(|&at| {
        tail[at..].starts_with(ZIP_MAGIC[1])
            && at + 22 + usize::from(u16_at(&tail, at + 20)) == tail.len()
    })?;
    let entries = u16_at(&tail, end + 10);
    if entries != 0xFFFF {
        return Some(u64::from(entries));
    }
    // Zip64: the locator (20 bytes) just before the end record gives the
    // zip64 end record's offset; its entry count is at its byte 32.
    let locator = end.checked_sub(20)?;
    if !tail[locator..].starts_with(b"PK\x06\x07") {
        return None;
    }
    let offset = u64::from_le_bytes(tail[locator + 8..locator + 16].try_into().ok()?);
    let mut record = [0u8; 40];
    file.read_exact_at(&mut record, offset).ok()?;
    record
        .starts_with(b"PK\x06\x06")
        .then(|| u64::from_le_bytes(record[32..40].try_into().expect("8 bytes")))
}

/// Elsewhere: not looked at.
#[cfg(not(unix))]
fn directory_entries(_: &File) -> Option<u64> {
    None
}

/// A zip archive read from a file.
type Archive = zip::ZipArchive<BufReader<File>>;

/// The zip archive in `file`, named `name`, and its members that are not
/// directories, in the order they lie in it (as a stream meets them): each
/// one's number and name.
///
/// Errors: the archive's directory does not read, or lists two members of
/// one name.
fn open_archive(name: &Arc<str>, file: File) -> anyhow::Result<(Archive, Vec<(usize, String)>)> {
    let entries = directory_entries(&file);
    let mut archive = zip::ZipArchive::new(BufReader::with_capacity(BUFFER, file))
        .with_context(|| format!("input {name} is not a readable zip archive"))?;
    // The zip crate keys members by name: of two with one name, it gives
    // the last only (found by probing: half the records gone, exit 0).
    if let Some(entries) = entries.filter(|&n| n != archive.len() as u64) {
        let piped = match &**name {
            "<stdin>" => "`cat ARCHIVE | sudoflow ... -`".to_string(),
            _ => format!("`cat {name} | sudoflow ... -`"),
        };
        bail!(
            "cannot read zip archive {name}: its directory lists {entries} members, but only {} \
             distinct names: members that share a name cannot all be read (repack it with \
             distinct names, or pipe it, read as a stream: {piped})",
            archive.len()
        );
    }
    // In the order the members lie in the archive, as a stream meets them.
    let mut members = Vec::with_capacity(archive.len());
    for i in 0..archive.len() {
        let member = archive
            .by_index_raw(i)
            .with_context(|| format!("cannot read zip archive {name}: its member {}", i + 1))?;
        if !member.is_dir() {
            members.push((member.header_start(), i, member.name().to_owned()));
        }
    }
    members.sort_unstable();
    Ok((
        archive,
        members
            .into_iter()
            .map(|(_, i, member)| (i, member))
            .collect(),
    ))
}

/// Reads each member of the zip archive in `file` (named `name`) to its
/// first record, without handing records on: the checks of a member's
/// header (`--keep`'s columns, two puzzle columns, `--column`) run on every
/// member before any row is written.
///
/// Errors: those of [`records_of_file`]'s directory, and of [`records_of`]
/// on a member's first lines.
pub(super) fn first_records_of_members(
    name: &Arc<str>,
    file: File,
    reading: &Reading,
) -> anyhow::Result<()> {
    let (mut archive, members) = open_archive(name, file)?;
    let reading = Reading {
        watch: None,
        ..*reading
    };
    for (i, member) in members {
        let source: Arc<str> = Arc::from(format!("{name}/{member}"));
        let input: Box<dyn BufRead + '_> = Box::new(BufReader::with_capacity(
            BUFFER,
            open_member(&mut archive, i, name, &member)?,
        ));
        let _ = records_of(&source, input, &reading, &mut 0, &mut |_| {
            ControlFlow::Break(())
        })?;
    }
    Ok(())
}

/// The member numbered `i` (named `member`) of the archive `name`, to read.
///
/// Errors: it cannot be read (an unsupported compression method,
/// encryption), named.
fn open_member<'a>(
    archive: &'a mut Archive,
    i: usize,
    name: &str,
    member: &str,
) -> anyhow::Result<zip::read::ZipFile<'a, BufReader<File>>> {
    archive
        .by_index(i)
        .with_context(|| format!("cannot read zip archive {name}: its member {member}"))
}

/// The records of the zip archive read as a stream from `input` (standard
/// input, a pipe), named `name`, numbered on from `index`: each member's as
/// it is decompressed, its CRC-32 checked at its end (see the module's
/// documentation); breaks when `f` does.
///
/// Errors: a member's header does not read; a member cannot be read (an
/// unsupported compression method, encryption) or is damaged, named, with
/// the rows that came from it; those of [`records_of`] on a member.
pub(super) fn records_of_stream(
    name: &Arc<str>,
    mut input: Box<dyn BufRead + '_>,
    reading: &Reading,
    index: &mut u64,
    f: &mut impl FnMut(Item) -> ControlFlow<()>,
) -> anyhow::Result<ControlFlow<()>> {
    let reading = Reading {
        watch: None,
        ..*reading
    };
    // An archive of no members is its end record alone, which the zip
    // crate's stream reader takes for a damaged member (found by probing:
    // "failed to fill whole buffer", where the archive by name reads as
    // no records).
    let head = input
        .fill_buf()
        .with_context(|| format!("cannot read zip archive {name}"))?;
    if head.starts_with(ZIP_MAGIC[1]) {
        return Ok(ControlFlow::Continue(()));
    }
    let mut previous = String::new();
    loop {
        let member = zip::read::read_zipfile_from_stream(&mut input).with_context(|| {
            if previous.is_empty() {
                format!("cannot read zip archive {name}: its first member")
            } else {
                format!("cannot read zip archive {name}: the member after {previous}")
            }
        })?;
        let Some(member) = member else {
            return Ok(ControlFlow::Continue(()));
        };
        previous = member.name().to_owned();
        if member.is_dir() {
            continue;
        }
        let start = *index;
        let source: Arc<str> = Arc::from(format!("{name}/{previous}"));
        let member: Box<dyn BufRead + '_> = Box::new(BufReader::with_capacity(BUFFER, member));
        match records_of(&source, member, &reading, index, f) {
            Ok(ControlFlow::Continue(())) => {}
            Ok(ControlFlow::Break(())) => return Ok(ControlFlow::Break(())),
            Err(e) => {
                let why = " (read as a stream, a member cannot be checked before its records \
                           are: give the archive by name to have each member checked first)";
                return Err(untrusted(e, name, &previous, start, *index, why));
            }
        }
    }
}

/// The error `e` of reading the member `member` of the archive `name`, whose
/// records were numbered `start + 1` to `end`: when reading its bytes failed
/// (damage: its CRC-32, its compressed data), the error says which rows came
/// from it, not to be trusted, and `why` they were written.
fn untrusted(
    e: anyhow::Error,
    name: &str,
    member: &str,
    start: u64,
    end: u64,
    why: &str,
) -> anyhow::Error {
    if !e.chain().any(|cause| cause.is::<io::Error>()) {
        // Not its bytes: `--column` names no column of its header, say.
        return e;
    }
    e.context(format!(
        "cannot read zip archive {name}: its member {member} is damaged: {}{why}",
        super::rows_from(start, end)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_read_failures_name_the_rows() {
        let damaged = anyhow::Error::new(io::Error::new(io::ErrorKind::InvalidData, "bad"))
            .context("cannot read input a.zip/b.txt after line 7");
        let message = format!("{:#}", untrusted(damaged, "a.zip", "b.txt", 100, 107, ""));
        assert_eq!(
            message,
            "cannot read zip archive a.zip: its member b.txt is damaged: rows 101-107 came from \
             it and must not be trusted: cannot read input a.zip/b.txt after line 7: bad"
        );
        let other = anyhow::anyhow!("input a.zip/b.txt has no column named \"x\"");
        let message = format!("{:#}", untrusted(other, "a.zip", "b.txt", 0, 0, ""));
        assert_eq!(message, "input a.zip/b.txt has no column named \"x\"");
    }

    #[test]
    fn zip_signatures() {
        assert!(is_zip(b"PK\x03\x04rest"));
        assert!(is_zip(b"PK\x05\x06"));
        assert!(!is_zip(b"PK\x01\x02"));
        assert!(!is_zip(b"PK"));
    }
}
