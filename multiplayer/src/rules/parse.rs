//! [`Rules::parse`]: the rules file's text into [`Rules`].

use alloc::string::{String, ToString};
use alloc::sync::Arc;
use alloc::vec::Vec;
use core::fmt;

use super::{Allow, Rules};
use crate::session::{MethodList, PathPattern, RpcMethods};

/// A line of a rules file that does not parse.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RulesError {
    /// The line's number, from 1.
    pub line: usize,
    /// What was expected.
    pub expected: String,
    /// The line, without its comment.
    pub text: String,
}

impl fmt::Display for RulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}: {}", self.line, self.expected, self.text)
    }
}

impl core::error::Error for RulesError {}

impl Rules {
    /// Reads a rules file's text (see the [module docs](super)): `methods`, `native`,
    /// `script`, `allow`, `allow-raw`, `allow-sync` and `allow-spawn` lines; `#` starts a
    /// comment. O(text + names log names).
    ///
    /// # Errors
    /// The first line that does not parse.
    pub fn parse(text: &str) -> Result<Rules, RulesError> {
        let mut methods = RpcMethods::new();
        let mut natives: Vec<(String, Vec<String>)> = Vec::new();
        let mut scripts: Vec<(String, Vec<String>)> = Vec::new();
        let mut rules = Rules::default();
        for (number, line) in text.lines().enumerate() {
            let line = line.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let at = |expected: &str| RulesError {
                line: number.saturating_add(1),
                expected: expected.to_string(),
                text: line.to_string(),
            };
            let (keyword, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
            let rest = rest.trim();
            match keyword {
                "methods" | "native" => {
                    let (node, names) =
                        rest.split_once('=').ok_or_else(|| at("expected NODE = NAMES"))?;
                    let node = node.trim().to_string();
                    if node.is_empty() {
                        return Err(at("missing the node"));
                    }
                    let names: Vec<String> = names.split_whitespace().map(String::from).collect();
                    let list = if keyword == "methods" { &mut scripts } else { &mut natives };
                    match list.iter_mut().find(|(n, _)| *n == node) {
                        Some((_, existing)) => existing.extend(names),
                        None => list.push((node, names)),
                    }
                }
                "script" | "script=" => {
                    let names = line
                        .split_once('=')
                        .map(|(_, n)| n)
                        .ok_or_else(|| at("expected script = NAMES"))?;
                    methods.script(MethodList::script(names.split_whitespace()));
                }
                "allow" | "allow-sync" | "allow-spawn" => {
                    let parts: Vec<&str> = rest.split_whitespace().collect();
                    let (node, member, rate) = match parts.as_slice() {
                        [node, member] => (node, member, None),
                        [node, member, rate] => (
                            node,
                            member,
                            Some(
                                parse_rate(rate)
                                    .ok_or_else(|| at("expected a rate such as 10/s"))?,
                            ),
                        ),
                        _ => {
                            return Err(at(&alloc::format!(
                                "expected {keyword} NODE MEMBER [N/s]"
                            )));
                        }
                    };
                    let allow = Allow {
                        node: PathPattern::new(node),
                        member: (*member != "*").then(|| member.to_string()),
                        rate,
                        text: Arc::from(line),
                    };
                    match keyword {
                        "allow" => rules.allow.push(allow),
                        "allow-sync" => rules.allow_sync.push(allow),
                        _ => rules.allow_spawn.push(allow),
                    }
                }
                "allow-raw" => {
                    let rate = match rest {
                        "" => None,
                        rate => Some(
                            parse_rate(rate).ok_or_else(|| at("expected a rate such as 10/s"))?,
                        ),
                    };
                    rules.raw = Some(rate);
                }
                _ => return Err(at("unknown rule")),
            }
        }
        for (node, _) in scripts.iter().chain(&natives) {
            if !rules.keys.contains(node) {
                rules.keys.push(node.clone());
            }
        }
        // A node's list holds both kinds: pair them by node.
        for (node, script) in &scripts {
            let native = natives.iter().find(|(n, _)| n == node).map(|(_, names)| names.clone());
            methods.node(node, MethodList::new(native.unwrap_or_default(), script.clone()));
        }
        for (node, native) in natives.iter().filter(|(n, _)| !scripts.iter().any(|(s, _)| s == n)) {
            methods.node(node, MethodList::new(native.clone(), Vec::<String>::new()));
        }
        rules.methods = Arc::new(methods);
        Ok(rules)
    }
}

/// `N/s`, N at least 1.
fn parse_rate(text: &str) -> Option<u32> {
    text.strip_suffix("/s")?.parse().ok().filter(|&n| n > 0)
}
