//! A small command-line reader: positional words, `--name value` options and `--flag`s.

use anyhow::{anyhow, bail, Result};
use std::collections::HashMap;
use std::str::FromStr;

/// Parsed arguments of one subcommand.
#[derive(Debug, Default)]
pub(crate) struct Args {
    /// Words that are not options, in order.
    pub(crate) positional: Vec<String>,
    options: HashMap<String, Vec<String>>,
    flags: Vec<String>,
}

impl Args {
    /// Reads `args`; `valued` names the options that take a value (without `--`); an option
    /// may take several values when listed in `valued` with a count, e.g. `("board", 2)`.
    pub(crate) fn parse(args: &[String], valued: &[(&str, usize)]) -> Result<Args> {
        let mut parsed = Args::default();
        let mut i = 0;
        while i < args.len() {
            let arg = &args[i];
            if let Some(name) = arg.strip_prefix("--") {
                let (name, inline) = match name.split_once('=') {
                    Some((n, v)) => (n, Some(v.to_string())),
                    None => (name, None),
                };
                match valued.iter().find(|(n, _)| *n == name) {
                    Some(&(_, count)) => {
                        let values: Vec<String> = match inline {
                            Some(v) if count == 1 => vec![v],
                            _ => {
                                let values = args
                                    .get(i + 1..i + 1 + count)
                                    .ok_or_else(|| anyhow!("--{name} needs {count} value(s)"))?;
                                i += count;
                                values.to_vec()
                            }
                        };
                        parsed
                            .options
                            .entry(name.to_string())
                            .or_default()
                            .extend(values);
                    }
                    None => parsed.flags.push(name.to_string()),
                }
            } else if arg == "-h" {
                parsed.flags.push("help".to_string());
            } else {
                parsed.positional.push(arg.clone());
            }
            i += 1;
        }
        Ok(parsed)
    }

    /// Whether `--name` was given.
    pub(crate) fn flag(&self, name: &str) -> bool {
        self.flags.iter().any(|f| f == name)
    }

    /// Fails on a flag not in `known`.
    pub(crate) fn reject_unknown_flags(&self, known: &[&str]) -> Result<()> {
        for flag in &self.flags {
            if flag != "help" && !known.contains(&flag.as_str()) {
                bail!("unknown option --{flag}");
            }
        }
        Ok(())
    }

    /// The values of `--name`, empty when absent.
    pub(crate) fn values(&self, name: &str) -> &[String] {
        self.options.get(name).map_or(&[], |v| v.as_slice())
    }

    /// The last value of `--name`, if given.
    pub(crate) fn value(&self, name: &str) -> Option<&str> {
        self.values(name).last().map(String::as_str)
    }

    /// The value of `--name` parsed, or `default` when absent.
    pub(crate) fn get<T: FromStr>(&self, name: &str, default: T) -> Result<T>
    where
        T::Err: std::fmt::Display,
    {
        match self.value(name) {
            None => Ok(default),
            Some(v) => v.parse().map_err(|e| anyhow!("--{name} {v}: {e}")),
        }
    }

    /// `--name` as a time of `default` seconds when absent: refused unless a positive
    /// number of seconds a duration can hold (which would otherwise end in a panic).
    pub(crate) fn seconds(&self, name: &str, default: f64) -> Result<std::time::Duration> {
        let seconds: f64 = self.get(name, default)?;
        (seconds > 0.0)
            .then(|| std::time::Duration::try_from_secs_f64(seconds).ok())
            .flatten()
            .ok_or_else(|| anyhow!("--{name} {seconds}: expected a positive number of seconds"))
    }

    /// `--name` as the memory of search tables in MiB, or `default` when absent: refused
    /// outside the range of the engine's option `hash`, or when that much memory cannot be
    /// had (which would otherwise end in a quietly smaller table, or a panic).
    pub(crate) fn table_mib(&self, name: &str, default: usize) -> Result<usize> {
        let mib: usize = self.get(name, default)?;
        let hash = emilia_core::engine::find_option("hash").map(|option| option.kind);
        let Some(emilia_core::engine::OptionKind::Number { min, max }) = hash else {
            unreachable!("the option table has hash, a number");
        };
        if !(min..=max).contains(&(mib as u64)) {
            bail!("--{name} {mib} is out of range {min} to {max} (MiB)");
        }
        // A trial mapping, which touches no page: refused as the tables would be.
        emilia_core::memory::check_table_mib(mib).map_err(|e| anyhow!("--{name} {mib}: {e}"))?;
        Ok(mib)
    }

    /// `--threads` (a count, or `all` for one a core), or `default` when absent.
    pub(crate) fn threads(&self, default: &str) -> Result<usize> {
        Ok(emilia_core::engine::read_threads(
            self.value("threads").unwrap_or(default),
        )?)
    }
}
