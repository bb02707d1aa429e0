//! The operator's rules: [`DropIf`] (drop a frame by a value inside it) and [`RateLimit`] (frames
//! per second per client).

use std::time::Duration;

use gdvariant::Key;
use gdvariant::net::Packet;
use tokio::time::Instant;

use crate::failure::Failure;

/// `--drop-if PATH=VALUE`: a frame whose value at `PATH` equals `VALUE` is dropped.
#[derive(Debug)]
pub struct DropIf {
    /// The rule as given, for the logs.
    pub text: String,
    path: Vec<Key<'static>>,
    value: Key<'static>,
}

impl DropIf {
    /// Parses `PATH=VALUE` (the first `=` splits them). The text is kept for the life of the
    /// process, as the rule is.
    pub fn parse(rule: &str) -> Result<Self, Failure> {
        let usage = |what: &str| Failure::Usage(format!("--drop-if {rule}: {what}"));
        let (path, _) = rule.split_once('=').ok_or_else(|| usage("expected PATH=VALUE"))?;
        let text: &'static str = String::from(rule).leak();
        let (path_text, value_text) = text.split_at(path.len());
        let value_text = value_text.get(1..).unwrap_or("");
        let path = gdvariant::parse_path(path_text).map_err(|e| usage(&e.to_string()))?;
        let value = parse_value(value_text);
        Ok(DropIf { text: rule.to_string(), path, value })
    }

    /// Whether `packet` matches: its value at the path exists and equals the value, by Godot's
    /// key equality. O(bytes of the value × steps of the path); a value the path cannot be
    /// followed in does not match.
    pub fn matches(&self, packet: &Packet) -> bool {
        match packet.value().lookup(&self.path) {
            Ok(Some(found)) => self.value.matches(&found),
            _ => false,
        }
    }
}

/// Parses a rule's value: `null`, `true`, `false`, an integer, a float, a quoted string, or any
/// other text as a string.
fn parse_value(text: &'static str) -> Key<'static> {
    match text {
        "null" => return Key::Nil,
        "true" => return Key::Bool(true),
        "false" => return Key::Bool(false),
        _ => {}
    }
    if let Ok(int) = text.parse::<i64>() {
        return Key::Int(int);
    }
    let numeric =
        text.starts_with(|c: char| c.is_ascii_digit() || c == '-' || c == '+' || c == '.');
    if let (true, Ok(float)) = (numeric, text.parse::<f64>()) {
        return Key::Float(float);
    }
    match text.strip_prefix('"').and_then(|t| t.strip_suffix('"')) {
        Some(quoted) => Key::String(quoted),
        None => Key::String(text),
    }
}

/// A token bucket: `rate` frames per second, up to `rate` at once.
#[derive(Debug)]
pub struct RateLimit {
    rate: f64,
    tokens: f64,
    last: Instant,
}

impl RateLimit {
    /// A full bucket of `rate` frames per second.
    pub fn new(rate: u32) -> Self {
        let rate = f64::from(rate);
        RateLimit { rate, tokens: rate, last: Instant::now() }
    }

    /// Whether one more frame may go now (it takes a token).
    pub fn allow(&mut self) -> bool {
        let now = Instant::now();
        let elapsed: Duration = now.saturating_duration_since(self.last);
        self.last = now;
        self.tokens = (self.tokens + elapsed.as_secs_f64() * self.rate).min(self.rate);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

/// Why a frame that Godot accepts is still dropped.
pub fn refusal(rules: &[DropIf], packet: &Packet) -> Option<String> {
    rules.iter().find(|rule| rule.matches(packet)).map(|rule| rule.text.clone())
}

/// Whether a packet Godot accepts may go on: the `--drop-if` rules (both directions), then the
/// rate limit (what clients send; a frame dropped by a rule takes no token). A refused packet is reported. O(rules × value).
pub fn admit(
    context: &super::Context,
    direction: super::Direction,
    packet: &Packet,
    rate: &mut Option<RateLimit>,
) -> bool {
    let len = u64::try_from(packet.len()).unwrap_or(u64::MAX);
    if let Some(rule) = refusal(&context.settings.drop_if, packet) {
        context.dropped(direction, packet.offset(), len, "drop_if", rule);
        return false;
    }
    let limited = direction == super::Direction::ToUpstream;
    if limited && rate.as_mut().is_some_and(|rate| !rate.allow()) {
        let per_second = rate.as_ref().map_or(0.0, |rate| rate.rate);
        let detail = format!("over {per_second} frames per second");
        context.dropped(direction, packet.offset(), len, "rate_limit", detail);
        return false;
    }
    true
}
