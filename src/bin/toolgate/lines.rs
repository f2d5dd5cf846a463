//! A line reader with a bound: `toolgate check` streams logs of any size in flat memory, and
//! a single enormous line (a runaway reply, a file that is not JSONL) is measured and skipped
//! without ever being held whole.
//!
//! It keeps its own buffer instead of using `BufRead` so that it knows when it is about to
//! wait for more input: that is the moment to flush the output, so that a live pipe
//! (`tail -f calls.jsonl | toolgate check ...`) answers each line as it arrives while a file
//! is still written in large blocks.

use std::io::{self, Read};

/// Bytes read from the input at a time.
const CHUNK: usize = 64 * 1024;

/// Reads lines of at most a given length from a byte stream.
pub struct LineReader<R> {
    inner: R,
    /// Invariant: `start <= end <= chunk.len()`; `chunk[start..end]` is read but unused.
    chunk: Vec<u8>,
    start: usize,
    end: usize,
    at_eof: bool,
}

/// What [`LineReader::read_line`] found.
#[derive(Debug, PartialEq, Eq)]
pub enum Line {
    /// A line, now in the caller's buffer without its `\n` (or `\r\n`).
    Text,
    /// A line longer than the cap: its length in bytes; none of it was kept.
    TooLong {
        /// The line's length in bytes, without its `\n`.
        bytes: u64,
    },
    /// The input is exhausted.
    End,
}

impl<R: Read> LineReader<R> {
    /// A reader over `inner`.
    pub fn new(inner: R) -> LineReader<R> {
        LineReader {
            inner,
            chunk: vec![0; CHUNK],
            start: 0,
            end: 0,
            at_eof: false,
        }
    }

    /// Reads the next line into `line` (cleared first), keeping at most `cap` bytes.
    ///
    /// `before_wait` runs each time the reader has used up what it read and is about to ask
    /// the input for more, which may block.
    ///
    /// # Errors
    /// The input's read error, or `before_wait`'s.
    pub fn read_line(
        &mut self,
        line: &mut Vec<u8>,
        cap: usize,
        mut before_wait: impl FnMut() -> io::Result<()>,
    ) -> io::Result<Line> {
        line.clear();
        let mut length: u64 = 0;
        let mut started = false;
        let mut too_long = false;
        loop {
            if self.start >= self.end {
                if self.at_eof {
                    break;
                }
                before_wait()?;
                match self.inner.read(&mut self.chunk) {
                    Ok(0) => {
                        self.at_eof = true;
                        break;
                    }
                    Ok(n_read) => {
                        self.start = 0;
                        self.end = n_read.min(self.chunk.len());
                    }
                    Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
                    Err(error) => return Err(error),
                }
            }
            started = true;
            let pending = self.chunk.get(self.start..self.end).unwrap_or_default();
            let newline = find_newline(pending);
            let part = match newline {
                Some(n_before) => pending.get(..n_before).unwrap_or_default(),
                None => pending,
            };
            length = length.saturating_add(part.len() as u64);
            if !too_long && line.len().saturating_add(part.len()) <= cap {
                line.extend_from_slice(part);
            } else {
                // Past the cap: drop what was kept and only count the rest.
                too_long = true;
                line.clear();
            }
            let used = part.len().saturating_add(usize::from(newline.is_some()));
            self.start = self.start.saturating_add(used);
            if newline.is_some() {
                break;
            }
        }
        if !started {
            return Ok(Line::End);
        }
        if too_long {
            return Ok(Line::TooLong { bytes: length });
        }
        if line.last() == Some(&b'\r') {
            line.pop();
        }
        Ok(Line::Text)
    }
}

/// Where the first `\n` of `bytes` stands: eight bytes at a time (a word holds a newline
/// when one of its bytes XOR `\n` is zero), then the word that holds it byte by byte. Lines
/// of calls run to hundreds of bytes, and a byte-by-byte search was a tenth of `check`.
fn find_newline(bytes: &[u8]) -> Option<usize> {
    const ONES: u64 = u64::from_ne_bytes([0x01; 8]);
    const HIGHS: u64 = u64::from_ne_bytes([0x80; 8]);
    const NEWLINES: u64 = u64::from_ne_bytes([b'\n'; 8]);
    let mut words = bytes.chunks_exact(8);
    let mut skipped = 0;
    for word in &mut words {
        let Ok(word) = <[u8; 8]>::try_from(word) else {
            break;
        };
        let x = u64::from_ne_bytes(word) ^ NEWLINES;
        if x.wrapping_sub(ONES) & !x & HIGHS != 0 {
            break;
        }
        skipped += 8;
    }
    let rest = bytes.get(skipped..)?;
    rest.iter()
        .position(|byte| *byte == b'\n')
        .map(|at| skipped + at)
}

#[cfg(test)]
mod tests {
    use super::find_newline;

    /// The word-at-a-time search finds what a byte-by-byte one finds, wherever the newline
    /// stands in or across words, with bytes around it that differ from it by one bit.
    #[test]
    fn finds_the_first_newline_where_a_plain_search_does() {
        for length in 0..40 {
            for at in 0..=length {
                let mut bytes: Vec<u8> = (0..length)
                    .map(|i| [b'a', 0x0b, 0x8a, 0x09][i % 4])
                    .collect();
                if at < length {
                    if let Some(byte) = bytes.get_mut(at) {
                        *byte = b'\n';
                    }
                    bytes.push(b'\n');
                }
                let plain = bytes.iter().position(|b| *b == b'\n');
                assert_eq!(find_newline(&bytes), plain, "{bytes:?}");
            }
        }
    }
}
