//! Options shared by several subcommands.

use clap::Args;
use shogi_core::{PawnDropRule, Rules};

/// Rule options.
#[derive(Args, Clone, Copy, Debug)]
pub struct RuleArgs {
    /// Which pawn drops that leave no legal reply are illegal.
    #[arg(long, value_enum, default_value = "mate")]
    pub pawn_drop: PawnDropRule,
}

impl RuleArgs {
    /// The rule set chosen.
    pub fn rules(self) -> Rules {
        Rules {
            pawn_drop: self.pawn_drop,
        }
    }
}

/// A clap value parser for `--threads`: a whole number of at least 1, so that `--threads
/// 0` is a usage error (exit code 2) like every other value out of range. Clap quotes the
/// value itself.
pub fn parse_threads(text: &str) -> Result<usize, String> {
    let t = text.trim();
    match t.parse::<usize>() {
        Ok(0) => Err("a thread count is 1 or more".into()),
        Ok(n) => Ok(n),
        Err(_) if t.starts_with('-') => Err("negative: a thread count is 1 or more".into()),
        Err(_) if !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()) => {
            Err(format!("too large: at most {} threads", usize::MAX))
        }
        Err(_) => Err("not a whole number: a thread count is 1 or more".into()),
    }
}

/// A clap value parser for counts, the one every command uses (`mate --nodes`,
/// `classify --max-expanded`, `estimate --samples`): written as people write them, `1e6`,
/// `2.5e6`, `5_000_000` or `5000000`, read exactly by [`shogi_estimate::parse_count`]. Its
/// errors name the option and do not echo a pasted megabyte back.
#[derive(Clone, Copy, Debug)]
pub struct CountParser {
    /// Whether 0 is refused (a number of samples).
    pub at_least_one: bool,
}

impl CountParser {
    /// Any count, 0 included.
    pub const ANY: CountParser = CountParser {
        at_least_one: false,
    };
}

impl clap::builder::TypedValueParser for CountParser {
    type Value = u64;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<u64, clap::Error> {
        let name = arg.map_or_else(
            || "a count".to_string(),
            |a| {
                a.get_long()
                    .map_or_else(|| a.get_id().to_string(), |l| format!("--{l}"))
            },
        );
        let fail = |why: String| {
            clap::Error::raw(
                clap::error::ErrorKind::ValueValidation,
                format!("invalid value for {name}: {why}"),
            )
            .format(&mut cmd.clone())
        };
        let text = value
            .to_str()
            .ok_or_else(|| fail("not valid UTF-8".into()))?;
        if self.at_least_one {
            shogi_estimate::parse_sample_count(text)
        } else {
            shogi_estimate::parse_count(text)
        }
        .map_err(fail)
    }
}
