//! The subcommands' output. A reader that stops reading (`emilia perft 9 | head -2`) is no
//! fault of ours: the broken pipe comes back as [`OutputClosed`], which the subcommand passes
//! up with `?` (so that engines it started are still shut down) and `cli::run` turns into a
//! quiet exit. SIGPIPE stays ignored: the referee writes to engines that may die.

use std::fmt;
use std::io::{self, Write};
use std::time::Duration;

/// Standard output was closed by its reader.
#[derive(Debug)]
pub struct OutputClosed;

impl fmt::Display for OutputClosed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("standard output closed")
    }
}

impl std::error::Error for OutputClosed {}

/// Standard output whose broken pipe is reported as [`OutputClosed`] (inside the
/// `io::Error`), every write flushed so that a closed output shows at once.
pub struct Stdout;

fn mark(error: io::Error) -> io::Error {
    if error.kind() == io::ErrorKind::BrokenPipe {
        io::Error::new(io::ErrorKind::BrokenPipe, OutputClosed)
    } else {
        error
    }
}

impl Write for Stdout {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let mut out = io::stdout().lock();
        let written = out.write(buf).map_err(mark)?;
        out.flush().map_err(mark)?;
        Ok(written)
    }

    fn flush(&mut self) -> io::Result<()> {
        io::stdout().flush().map_err(mark)
    }
}

/// Writes `args` to standard output (what `out!` and `outln!` expand to).
pub fn print(args: fmt::Arguments) -> anyhow::Result<()> {
    let mut out = io::stdout().lock();
    out.write_fmt(args)
        .and_then(|_| out.flush())
        .map_err(|e| match mark(e) {
            e if is_closed_io(&e) => anyhow::Error::new(OutputClosed),
            e => anyhow::Error::new(e).context("writing to standard output"),
        })
}

/// A duration for progress reports: `1h02m`, `5m10s`, `12s`.
pub(crate) fn duration_text(d: Duration) -> String {
    let s = d.as_secs();
    if s >= 3600 {
        format!("{}h{:02}m", s / 3600, s % 3600 / 60)
    } else if s >= 60 {
        format!("{}m{:02}s", s / 60, s % 60)
    } else {
        format!("{s}s")
    }
}

/// Writes one line to standard error, as a progress report: a closed stderr is ignored,
/// since nothing can be told to nobody.
pub fn note(line: &str) {
    let _ = writeln!(io::stderr().lock(), "{line}");
}

fn is_closed_io(error: &io::Error) -> bool {
    error
        .get_ref()
        .is_some_and(|inner| inner.is::<OutputClosed>())
}

/// Whether `error` comes from standard output being closed.
pub fn is_closed(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        cause.is::<OutputClosed>() || cause.downcast_ref::<io::Error>().is_some_and(is_closed_io)
    })
}

/// `print!` to standard output that returns `anyhow::Result<()>` instead of panicking.
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::cli::output::print(format_args!($($arg)*))
    };
}

/// `println!` to standard output that returns `anyhow::Result<()>` instead of panicking.
macro_rules! outln {
    () => {
        $crate::cli::output::print(format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::cli::output::print(format_args!("{}\n", format_args!($($arg)*)))
    };
}

pub(crate) use {out, outln};

/// Fails when `path` exists (even as a dangling link) and `force` was not given: no writer
/// replaces a file unasked. Checked before any long work, so that nothing is lost to it.
pub(super) fn refuse_existing(path: &std::path::Path, force: bool) -> anyhow::Result<()> {
    if !force && path.symlink_metadata().is_ok() {
        anyhow::bail!("{} exists: give --force to replace it", path.display());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_well() {
        assert_eq!(duration_text(Duration::from_secs(3725)), "1h02m");
        assert_eq!(duration_text(Duration::from_secs(310)), "5m10s");
        assert_eq!(duration_text(Duration::from_secs(12)), "12s");
    }

    #[test]
    fn only_a_closed_output_counts_as_closed() {
        let closed = anyhow::Error::new(OutputClosed).context("printing the report");
        assert!(is_closed(&closed));
        let marked = anyhow::Error::new(mark(io::Error::from(io::ErrorKind::BrokenPipe)));
        assert!(is_closed(&marked));
        // A broken pipe elsewhere (an engine's input) is a real error.
        let other = anyhow::Error::new(io::Error::from(io::ErrorKind::BrokenPipe));
        assert!(!is_closed(&other));
    }
}
