//! An input's bytes as lines: gzip members decompressed where they start,
//! a line longer than the cap read as a stream and only its head kept.

use super::streaming;
use super::BUFFER;
use flate2::bufread::GzDecoder;
use std::io::{self, BufRead, BufReader, Cursor, Read};

/// gzip's magic bytes (RFC 1952, ID1 ID2).
pub(super) const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

/// Bytes of a gzip member's fixed start that tell it from other bytes:
/// ID1 ID2 CM FLG.
const GZIP_HEAD: usize = 4;

/// Whether `head` starts a gzip member: the magic bytes, CM 8 (deflate,
/// the only method) and no reserved FLG bit set (RFC 1952, 2.3.1). A line
/// of binary bytes that happens to start with the magic bytes is read as
/// a line (an invalid record), not as a damaged member that ends the run.
fn is_gzip_head(head: &[u8]) -> bool {
    matches!(head, [0x1f, 0x8b, 8, flags, ..] if flags & 0xe0 == 0)
}

/// Takes up to [`GZIP_HEAD`] bytes from `input` (fewer at its end).
fn take_head(input: &mut dyn BufRead) -> io::Result<Vec<u8>> {
    let mut head = Vec::with_capacity(GZIP_HEAD);
    while head.len() < GZIP_HEAD {
        let avail = input.fill_buf()?;
        if avail.is_empty() {
            break;
        }
        let n = (GZIP_HEAD - head.len()).min(avail.len());
        head.extend_from_slice(&avail[..n]);
        input.consume(n);
    }
    Ok(head)
}

/// The bytes of one input, gzip members decompressed where they start.
pub(super) struct Lines<R> {
    layer: Layer<R>,
    /// Bytes of the layer's buffer that the line last returned by
    /// [`Lines::next_line`] took in place; consumed on the next call.
    pending: usize,
    /// Longest line (end of line not counted) whose bytes are all kept.
    cap: usize,
    /// Gzip members entered so far.
    members: u64,
}

/// One line as [`Lines::next_line`] returns it.
pub(super) struct Line<'a> {
    /// The line, end of line included; for a line longer than the cap, only
    /// its first bytes (at least the cap's worth).
    pub(super) bytes: &'a [u8],
    /// The line's whole length in bytes, its end (`\n` or `\r\n`) not
    /// counted.
    pub(super) len: u64,
    /// Whether the line's bytes past those in `bytes` (none when it is kept
    /// whole), its end aside, are all blanks (spaces and tabs): with
    /// `bytes` blank too, a long line is a blank line.
    pub(super) rest_blank: bool,
    /// The gzip member it came from, or where it ends if it runs across
    /// members ([`Lines::gzip_member`]); `None` in plain bytes.
    pub(super) member: Option<u64>,
}

/// Length of a line of `len` bytes whose last two bytes are `last`, less
/// its `\n` or `\r\n` end.
fn without_end(len: u64, last: [u8; 2]) -> u64 {
    match last {
        [b'\r', b'\n'] if len >= 2 => len - 2,
        [_, b'\n'] if len >= 1 => len - 1,
        _ => len,
    }
}

/// What [`Lines::read_line`] knows of the line it is reading.
struct LineSoFar {
    /// Bytes of the line kept in the buffer, at most.
    keep: usize,
    /// Bytes read so far, end of line included.
    len: u64,
    /// The last two bytes read (to tell a `\r\n` end).
    last: [u8; 2],
    /// Where in the line the first byte not kept that is no blank (space,
    /// tab) lies, if any has been read.
    other_dropped: Option<u64>,
}

impl LineSoFar {
    /// Takes `bytes`, the next bytes of the line, keeping what fits in `buf`.
    fn push(&mut self, bytes: &[u8], buf: &mut Vec<u8>) {
        let room = self.keep.saturating_sub(buf.len());
        let kept = bytes.len().min(room);
        buf.extend_from_slice(&bytes[..kept]);
        if self.other_dropped.is_none() {
            let other = bytes[kept..].iter().position(|&b| b != b' ' && b != b'\t');
            self.other_dropped = other.map(|i| self.len + (kept + i) as u64);
        }
        self.len += bytes.len() as u64;
        self.last = match bytes {
            [.., a, b] => [*a, *b],
            [b] => [self.last[1], *b],
            [] => self.last,
        };
    }

    /// The length so far less a `\n` or `\r\n` end.
    fn without_end(&self) -> u64 {
        without_end(self.len, self.last)
    }

    /// The line's length less its end, and whether the bytes not kept are
    /// blanks but for the end ([`Line::rest_blank`]).
    fn read(&self) -> (u64, bool) {
        let len = self.without_end();
        (len, self.other_dropped.is_none_or(|at| at >= len))
    }
}

/// A gzip member's decoder reads from the bytes of the line where its magic
/// bytes were seen, then from the rest of the input.
type Member<R> = BufReader<GzDecoder<io::Chain<Cursor<Vec<u8>>, R>>>;

/// An input as [`Lines`] holds it: a boxed reader, `Send` or not (the
/// records of [`FileRecords`](super::FileRecords) are taken by several threads in turn; a zip
/// member's reader cannot be sent). Boxed, so that the bytes a gzip member
/// left unused can be put back in front of the rest ([`Input::chained`]).
pub(super) trait Input: BufRead + Sized {
    /// `head`'s unread bytes, then `rest`.
    fn chained(head: Cursor<Vec<u8>>, rest: Self) -> Self;
}

impl<'a> Input for Box<dyn BufRead + 'a> {
    fn chained(head: Cursor<Vec<u8>>, rest: Self) -> Self {
        Box::new(head.chain(rest))
    }
}

impl<'a> Input for Box<dyn BufRead + Send + 'a> {
    fn chained(head: Cursor<Vec<u8>>, rest: Self) -> Self {
        Box::new(head.chain(rest))
    }
}

enum Layer<R> {
    Plain(R),
    Gzip(Box<Member<R>>),
    /// Only while switching between the two.
    Switching,
}

impl<R: Input> Lines<R> {
    pub(super) fn new(input: R, cap: usize) -> Lines<R> {
        Lines {
            layer: Layer::Plain(input),
            pending: 0,
            cap,
            members: 0,
        }
    }

    /// The gzip member being read, numbered from 1 in the order the input
    /// holds them, or `None` in plain bytes. A read failing inside a member
    /// is its damage, which gzip finds only at the member's end (its
    /// CRC-32), so every line from the member is in doubt.
    pub(super) fn gzip_member(&self) -> Option<u64> {
        matches!(self.layer, Layer::Gzip(_)).then_some(self.members)
    }

    /// Whether reading the next line would wait for input watched by `w`:
    /// plain bytes (not a gzip member), no whole line buffered, and nothing
    /// ready on the descriptor.
    pub(super) fn will_wait(&mut self, w: &streaming::Watch) -> bool {
        let pending = std::mem::take(&mut self.pending);
        self.input().consume(pending);
        matches!(self.layer, Layer::Plain(_)) && w.will_wait()
    }

    /// The layer's buffered reader.
    fn input(&mut self) -> &mut dyn BufRead {
        match &mut self.layer {
            Layer::Plain(input) => input,
            Layer::Gzip(member) => member,
            Layer::Switching => unreachable!("layer restored before use"),
        }
    }

    /// The next line, or `None` at the end of the input. A line that lies
    /// whole in the reader's buffer is returned in place (no copy: the
    /// common case); any other is assembled in `buf` by [`Lines::read_line`],
    /// which keeps at most the cap's worth of it. In plain bytes, a line
    /// starting with gzip's first magic byte always takes that path, which
    /// opens gzip members.
    pub(super) fn next_line<'b>(
        &'b mut self,
        buf: &'b mut Vec<u8>,
    ) -> io::Result<Option<Line<'b>>> {
        let pending = std::mem::take(&mut self.pending);
        self.input().consume(pending);
        let plain = matches!(self.layer, Layer::Plain(_));
        let avail = self.input().fill_buf()?;
        if plain && avail.is_empty() {
            // The end, told once: a terminal's Ctrl-D is a single read of
            // nothing, and reading again would wait for more typing.
            return Ok(None);
        }
        let in_place = if plain && avail.first() == Some(&GZIP_MAGIC[0]) {
            None
        } else {
            memchr::memchr(b'\n', avail).map(|end| end + 1)
        };
        match in_place {
            Some(len) => {
                let member = self.gzip_member();
                self.pending = len;
                // Still buffered: fill_buf returns the same bytes.
                let bytes = &self.input().fill_buf()?[..len];
                let last = [bytes[len.saturating_sub(2)], bytes[len - 1]];
                let len = without_end(len as u64, last);
                Ok(Some(Line {
                    bytes,
                    len,
                    rest_blank: true,
                    member,
                }))
            }
            None => {
                let len = self.read_line(buf)?;
                let member = self.gzip_member();
                Ok(len.map(|(len, rest_blank)| Line {
                    bytes: buf,
                    len,
                    rest_blank,
                    member,
                }))
            }
        }
    }

    /// Reads the next line into `buf` (cleared first), end of line included,
    /// keeping at most the cap plus two bytes (so a line at the cap keeps its
    /// `\r\n`): the rest of a longer line is read and dropped, so memory
    /// stays bounded however long the line. Returns the line's length less
    /// its end (see [`Line::len`]) and whether the bytes dropped are blanks
    /// ([`Line::rest_blank`]), `None` at the end of the input.
    fn read_line(&mut self, buf: &mut Vec<u8>) -> io::Result<Option<(u64, bool)>> {
        buf.clear();
        let mut line = LineSoFar {
            keep: self.cap.saturating_add(2),
            len: 0,
            last: [0; 2],
            other_dropped: None,
        };
        // A gzip member may start here: at a line start or where the previous
        // member ended.
        let mut member_may_start = true;
        loop {
            let plain = matches!(self.layer, Layer::Plain(_));
            if plain && std::mem::take(&mut member_may_start) {
                let input = self.input();
                let avail = input.fill_buf()?;
                if avail.is_empty() {
                    // The end (read once: see `next_line`).
                    return Ok((line.len > 0).then(|| line.read()));
                }
                if avail.first() == Some(&GZIP_MAGIC[0]) {
                    if avail.len() >= GZIP_HEAD {
                        if is_gzip_head(avail) {
                            let head = avail[..GZIP_HEAD].to_vec();
                            input.consume(GZIP_HEAD);
                            self.enter_gzip(head);
                            continue;
                        }
                    } else {
                        // The header's start runs past the buffer's end
                        // (rare): taken, and put back if it is no gzip.
                        let head = take_head(input)?;
                        if is_gzip_head(&head) {
                            self.enter_gzip(head);
                            continue;
                        }
                        self.put_back(head);
                    }
                    // Not gzip (binary bytes that start alike): a line.
                }
            }
            let input = self.input();
            let avail = input.fill_buf()?;
            if avail.is_empty() {
                if plain {
                    return Ok((line.len > 0).then(|| line.read()));
                }
                // The member ended (maybe mid-line): back to plain bytes.
                self.leave_gzip();
                member_may_start = true;
                continue;
            }
            let (n, done) = match memchr::memchr(b'\n', avail) {
                Some(end) => (end + 1, true),
                None => (avail.len(), false),
            };
            line.push(&avail[..n], buf);
            input.consume(n);
            if done {
                return Ok(Some(line.read()));
            }
        }
    }

    /// Puts `head`, bytes taken from the plain input, back in front of it.
    fn put_back(&mut self, head: Vec<u8>) {
        let Layer::Plain(rest) = std::mem::replace(&mut self.layer, Layer::Switching) else {
            unreachable!("put_back to plain bytes only")
        };
        self.layer = Layer::Plain(R::chained(Cursor::new(head), rest));
    }

    fn enter_gzip(&mut self, head: Vec<u8>) {
        let Layer::Plain(rest) = std::mem::replace(&mut self.layer, Layer::Switching) else {
            unreachable!("enter_gzip from plain bytes only")
        };
        let input = Cursor::new(head).chain(rest);
        self.members += 1;
        self.layer = Layer::Gzip(Box::new(BufReader::with_capacity(
            BUFFER,
            GzDecoder::new(input),
        )));
    }

    fn leave_gzip(&mut self) {
        let Layer::Gzip(member) = std::mem::replace(&mut self.layer, Layer::Switching) else {
            unreachable!("leave_gzip from a gzip member only")
        };
        let (head, rest) = member.into_inner().into_inner().into_inner();
        // Bytes of `head` the decoder did not use belong to what follows the
        // member; usually there are none and the chain is not kept.
        self.layer = if head.position() as usize >= head.get_ref().len() {
            Layer::Plain(rest)
        } else {
            Layer::Plain(R::chained(head, rest))
        };
    }
}

#[cfg(test)]
mod tests {
    use super::super::LINE_CAP;
    use super::*;
    use flate2::write::GzEncoder;
    use std::io::Write;

    fn gz(data: &[u8]) -> Vec<u8> {
        let mut e = GzEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(data).unwrap();
        e.finish().unwrap()
    }

    fn lines_of(bytes: Vec<u8>) -> Vec<Vec<u8>> {
        // A tiny buffer puts lines across buffer boundaries (the copying
        // path); a whole-input one serves most lines in place.
        let tiny = lines_with(BufReader::with_capacity(3, Cursor::new(bytes.clone())));
        let whole = lines_with(BufReader::with_capacity(1 << 16, Cursor::new(bytes)));
        assert_eq!(tiny, whole);
        whole
    }

    fn lines_with(input: impl BufRead + 'static) -> Vec<Vec<u8>> {
        let input: Box<dyn BufRead> = Box::new(input);
        let mut lines = Lines::new(input, LINE_CAP);
        let mut out = Vec::new();
        let mut buf = Vec::new();
        while let Some(line) = lines.next_line(&mut buf).unwrap() {
            out.push(line.bytes.to_vec());
        }
        out
    }

    #[test]
    fn plain_gzip_plain_gzip_members_in_one_stream() {
        let mut bytes = b"a\nb\n".to_vec();
        bytes.extend(gz(b"c\nd\n"));
        bytes.extend(b"e\n");
        bytes.extend(gz(b"f\ng"));
        bytes.extend(gz(b"h\n"));
        bytes.extend(b"i");
        let got = lines_of(bytes);
        let want: Vec<&[u8]> = vec![
            b"a\n", b"b\n", b"c\n", b"d\n", b"e\n", b"f\n", b"gh\n", b"i",
        ];
        assert_eq!(got, want);
    }

    /// Lines of binary bytes that start with gzip's magic bytes (or part of
    /// them, at the input's end) but no gzip header are lines: they ended
    /// the input as a damaged member before. A tiny buffer puts the header
    /// across buffer ends (`lines_of`).
    #[test]
    fn bytes_like_a_gzip_start_without_its_header_are_a_line() {
        let mut bytes = b"a\n\x1f\x8bjunk\n\x1f\x8b\x08\xff\n\x1f\n".to_vec();
        bytes.extend(gz(b"c\n"));
        bytes.extend(b"\x1f\x8b");
        let got = lines_of(bytes);
        let want: Vec<&[u8]> = vec![
            b"a\n",
            b"\x1f\x8bjunk\n",
            b"\x1f\x8b\x08\xff\n",
            b"\x1f\n",
            b"c\n",
            b"\x1f\x8b",
        ];
        assert_eq!(got, want);
    }

    #[test]
    fn a_line_over_the_cap_is_streamed_not_kept() {
        // 64 MiB of one line and its CRLF, then a short line, plain and in a
        // gzip member: the line buffer never grows past the cap (+ CRLF).
        let long = 64 << 20;
        for gzipped in [false, true] {
            let body = io::repeat(b'7').take(long).chain(&b"\r\nnext"[..]);
            let input: Box<dyn BufRead> = if gzipped {
                let mut e = flate2::read::GzEncoder::new(body, flate2::Compression::fast());
                let mut bytes = Vec::new();
                e.read_to_end(&mut bytes).unwrap();
                Box::new(Cursor::new(bytes))
            } else {
                Box::new(BufReader::new(body))
            };
            let mut lines = Lines::new(input, LINE_CAP);
            let mut buf = Vec::new();
            let line = lines.next_line(&mut buf).unwrap().unwrap();
            assert_eq!(line.len, long);
            assert_eq!(line.bytes.len(), LINE_CAP + 2);
            assert!(line.bytes.iter().all(|&b| b == b'7'));
            assert!(buf.capacity() <= 2 * LINE_CAP, "{}", buf.capacity());
            let line = lines.next_line(&mut buf).unwrap().unwrap();
            assert_eq!((line.bytes, line.len), (&b"next"[..], 4));
            assert!(lines.next_line(&mut buf).unwrap().is_none());
        }
    }
}
