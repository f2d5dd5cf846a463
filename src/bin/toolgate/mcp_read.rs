//! Reading one message of a newline-delimited stream as the bytes it is (the MCP stdio
//! transport), within a bound. The proxy relays a line byte for byte, so a line keeps its
//! `\r` and its `\n`; a line over the bound is never held whole (memory stays flat whatever
//! a peer sends): what goes beyond is handed on in parts, to be relayed or kept in part.

use std::io::{self, BufRead};

/// What [`read_message`] found.
#[derive(Debug, PartialEq, Eq)]
pub enum Message {
    /// A line, now in the caller's buffer with its `\n` (absent only at the end of input).
    Line,
    /// A line longer than the bound, every byte of it handed to `spill`, none kept.
    TooLong {
        /// Its length in bytes, with its `\n`.
        bytes: u64,
    },
    /// The input is exhausted.
    End,
}

/// Reads the next line into `line` (cleared first) while it stays within `cap` bytes. Past
/// `cap`, `spill` gets what was kept and then each further part, through the `\n`.
///
/// # Errors
/// The input's read error, or `spill`'s.
pub fn read_message(
    input: &mut impl BufRead,
    line: &mut Vec<u8>,
    cap: usize,
    spill: &mut dyn FnMut(&[u8]) -> io::Result<()>,
) -> io::Result<Message> {
    line.clear();
    let mut spilled: Option<u64> = None;
    loop {
        let available = match input.fill_buf() {
            Ok(available) => available,
            Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
            Err(error) => return Err(error),
        };
        if available.is_empty() {
            return Ok(match spilled {
                Some(bytes) => Message::TooLong { bytes },
                None if line.is_empty() => Message::End,
                None => Message::Line,
            });
        }
        let newline = available.iter().position(|byte| *byte == b'\n');
        let part = match newline {
            Some(at) => available.get(..=at).unwrap_or(available),
            None => available,
        };
        let used = part.len();
        match &mut spilled {
            Some(bytes) => {
                spill(part)?;
                *bytes = bytes.saturating_add(used as u64);
            }
            None if line.len().saturating_add(used) <= cap => line.extend_from_slice(part),
            None => {
                spill(line)?;
                spill(part)?;
                spilled = Some((line.len() as u64).saturating_add(used as u64));
                line.clear();
            }
        }
        input.consume(used);
        if newline.is_some() {
            return Ok(match spilled {
                Some(bytes) => Message::TooLong { bytes },
                None => Message::Line,
            });
        }
    }
}

/// The line without its `\n`: what the proxy reads (a `\r` before it is JSON whitespace).
pub fn content(line: &[u8]) -> &[u8] {
    line.strip_suffix(b"\n").unwrap_or(line)
}

#[cfg(test)]
mod tests {
    use super::{read_message, Message};

    /// Lines keep their bytes, `\r` included; a line over the bound is handed on whole in
    /// parts and counted; the last line may lack its `\n`.
    #[test]
    fn keeps_bytes_and_spills_long_lines() {
        let input = b"{\"a\":1}\r\n0123456789\n\nlast".to_vec();
        let mut reader = std::io::BufReader::with_capacity(4, &input[..]);
        let mut line = Vec::new();
        let mut spilled = Vec::new();
        let mut found = Vec::new();
        loop {
            let mut spill = |part: &[u8]| {
                spilled.extend_from_slice(part);
                Ok(())
            };
            let read = read_message(&mut reader, &mut line, 9, &mut spill);
            let read = read.unwrap_or(Message::End);
            if read == Message::End {
                break;
            }
            found.push((read, line.clone()));
        }
        assert_eq!(
            found,
            vec![
                (Message::Line, b"{\"a\":1}\r\n".to_vec()),
                (Message::TooLong { bytes: 11 }, Vec::new()),
                (Message::Line, b"\n".to_vec()),
                (Message::Line, b"last".to_vec()),
            ]
        );
        assert_eq!(spilled, b"0123456789\n");
    }
}
