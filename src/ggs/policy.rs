//! Which requests to accept: board sizes, synchro and random starts, clock bounds, rated
//! or not, named opponents. A refusal comes with its reason, for the log.

use std::time::Duration;

use super::message::Request;

/// Whether rated games, unrated games or both are accepted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Rated {
    Any,
    Only,
    Never,
}

/// What the client accepts.
#[derive(Clone, Debug)]
pub(crate) struct Policy {
    /// Board sizes played (of 6, 8, 10, 12).
    pub(crate) sizes: Vec<usize>,
    pub(crate) synchro: bool,
    pub(crate) random: bool,
    /// Bounds on main time.
    pub(crate) min_main: Duration,
    pub(crate) max_main: Duration,
    /// Least extension accepted (a game without one is lost at once when main time ends).
    pub(crate) min_extension: Duration,
    pub(crate) rated: Rated,
    /// Opponents accepted; anyone when empty.
    pub(crate) opponents: Vec<String>,
}

impl Default for Policy {
    fn default() -> Policy {
        Policy {
            sizes: emilia_core::board::SIZES.to_vec(),
            synchro: true,
            random: true,
            min_main: Duration::from_secs(1),
            max_main: Duration::from_secs(3600),
            min_extension: Duration::ZERO,
            rated: Rated::Any,
            opponents: Vec::new(),
        }
    }
}

impl Policy {
    /// `Ok` to accept `request`, or why not.
    pub(crate) fn judge(&self, request: &Request) -> Result<(), String> {
        let kind = &request.kind;
        if kind.anti {
            return Err(format!("{}: anti-Othello is not played", kind.text));
        }
        if kind.komi {
            return Err(format!("{}: komi games are not played", kind.text));
        }
        if !self.sizes.contains(&kind.size) {
            return Err(format!(
                "{}: board {} is not among the sizes played ({})",
                kind.text,
                kind.size,
                list(&self.sizes)
            ));
        }
        if kind.synchro && !self.synchro {
            return Err(format!(
                "{}: synchro games are refused (--no-synchro)",
                kind.text
            ));
        }
        if kind.random.is_some() && !self.random {
            return Err(format!(
                "{}: random starts are refused (--no-random)",
                kind.text
            ));
        }
        let s = &request.setting;
        if s.main < self.min_main || s.main > self.max_main {
            return Err(format!(
                "{}: main time {}s is outside {}s to {}s",
                s.text(),
                s.main.as_secs(),
                self.min_main.as_secs(),
                self.max_main.as_secs()
            ));
        }
        if s.extension < self.min_extension {
            return Err(format!(
                "{}: extension {}s is under {}s",
                s.text(),
                s.extension.as_secs(),
                self.min_extension.as_secs()
            ));
        }
        match (self.rated, request.rated) {
            (Rated::Only, false) => return Err("unrated, and only rated games are played".into()),
            (Rated::Never, true) => return Err("rated, and only unrated games are played".into()),
            _ => {}
        }
        if !self.opponents.is_empty() && !self.opponents.contains(&request.from) {
            return Err(format!("{} is not among the opponents named", request.from));
        }
        Ok(())
    }
}

fn list(sizes: &[usize]) -> String {
    let names: Vec<String> = sizes.iter().map(usize::to_string).collect();
    names.join(", ")
}

#[cfg(test)]
mod tests {
    use super::super::clock::Setting;
    use super::super::message::GameType;
    use super::*;

    fn request(kind: &str, setting: &str, rated: bool, from: &str) -> Request {
        Request {
            id: ".1".into(),
            from: from.into(),
            setting: Setting::parse(setting).unwrap(),
            kind: GameType::parse(kind).unwrap(),
            rated,
            to: String::new(),
        }
    }

    #[test]
    fn requests_are_judged_with_reasons() {
        let mut policy = Policy::default();
        assert!(policy
            .judge(&request("8", "01:00//00:10", false, "bob"))
            .is_ok());
        assert!(policy
            .judge(&request("s12r20", "05:00", true, "bob"))
            .is_ok());
        for (kind, why) in [
            ("8a", "anti"),
            ("8k", "komi"),
            ("14", "sizes"),
            ("4", "sizes"),
        ] {
            let e = policy
                .judge(&request(kind, "01:00", false, "bob"))
                .unwrap_err();
            assert!(e.contains(why), "{kind}: {e}");
        }
        let e = policy
            .judge(&request("8", "02:00:00", false, "bob"))
            .unwrap_err();
        assert!(e.contains("main time"), "{e}");
        policy.rated = Rated::Never;
        policy.opponents = vec!["carol".into()];
        assert!(policy.judge(&request("8", "01:00", true, "carol")).is_err());
        let e = policy
            .judge(&request("8", "01:00", false, "bob"))
            .unwrap_err();
        assert!(e.contains("bob"), "{e}");
        policy.synchro = false;
        assert!(policy
            .judge(&request("s8", "01:00", false, "carol"))
            .is_err());
    }
}
