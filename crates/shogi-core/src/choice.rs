//! The enums a command line or a file chooses from by name ([`crate::GameKind`],
//! [`crate::PawnDropRule`]): `Display` and `FromStr` by their names, and with the `clap`
//! feature `clap::ValueEnum`, so that every tool spells them the same way.

/// Implements the name-based traits for an enum with `ALL`, `name()` and `help()`; `$what`
/// names the kind of value in the error of an unknown name.
macro_rules! choice {
    ($t:ty, $what:literal) => {
        impl core::fmt::Display for $t {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.write_str(self.name())
            }
        }

        #[cfg(feature = "std")]
        impl core::str::FromStr for $t {
            type Err = String;

            /// Reads a name, as [`Self::name`] writes it.
            fn from_str(s: &str) -> Result<Self, String> {
                <$t>::ALL
                    .into_iter()
                    .find(|v| v.name() == s)
                    .ok_or_else(|| {
                        let names: Vec<&str> = <$t>::ALL.iter().map(|v| v.name()).collect();
                        let s = $crate::sfen::quoted(s);
                        format!("unknown {} {s}: {}", $what, names.join(" or "))
                    })
            }
        }

        #[cfg(feature = "clap")]
        impl clap::ValueEnum for $t {
            fn value_variants<'a>() -> &'a [Self] {
                &<$t>::ALL
            }

            fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
                Some(clap::builder::PossibleValue::new(self.name()).help(self.help()))
            }
        }
    };
}

choice!(crate::GameKind, "game");
choice!(crate::PawnDropRule, "pawn-drop rule");
