//! The proxy's filter, composed from the library's (`gdvariant_relay`): the `--drop-if` rules
//! (reading values), the multiplayer guard (`--multiplayer`: `gdvariant_relay::Guard`, the
//! library's tracker and rules), and the per-client `--rate-limit` (`gdvariant_relay::RateLimit`).
//! [`Calls`] is the guard's tap: it counts and logs calls (`--log-calls`) and captures what is
//! forwarded (the report captures what is dropped).

use std::sync::Arc;

use gdvariant_multiplayer::track::{Message, Refusal};
use gdvariant_relay::{Chain, Filter, FilterExt, Frame, Guard, RateLimit, Tap, Verdict};
use serde_json::json;

use super::report::Report;
use super::rules::{DropIf, refusal};
use super::settings::Settings;
use crate::multiplayer::describe::describe;

/// The proxy's filter: the guard (multiplayer) or the drop rules (values), then the rate limit
/// (values; the guard applies its own after the rules).
pub type ProxyFilter = Chain<Chain<Option<Guard<Calls>>, Option<DropIfs>>, Option<RateLimit>>;

/// The filter the settings ask for.
pub fn build(settings: &Settings, report: &Arc<Report>) -> ProxyFilter {
    let rate = settings.rate_limit.map(RateLimit::per_second);
    let guard = settings.multiplayer.then(|| {
        let rules = settings.rules.clone().unwrap_or_default();
        Guard::new(rules)
            .with_project(settings.project.clone())
            .with_rate_limit(rate.map(|rate| rate.named("packets")))
            .with_tap(Calls { report: Arc::clone(report), log_calls: settings.log_calls })
    });
    let drop_if = (!settings.multiplayer && !settings.drop_if.is_empty())
        .then(|| DropIfs(Arc::clone(&settings.drop_if)));
    let rate = rate.filter(|_| !settings.multiplayer).map(|rate| rate.named("frames"));
    guard.then(drop_if).then(rate)
}

/// `--drop-if` and its per-direction forms, on values.
#[derive(Debug)]
pub struct DropIfs(pub Arc<Vec<DropIf>>);

impl Filter for DropIfs {
    type State = ();

    fn open(&self, _: &gdvariant_relay::Connection) {}

    fn judge(&self, (): &mut (), frame: &Frame<'_>) -> Verdict {
        // The value's head is read only when a rule needs it.
        match frame.value().and_then(|value| refusal(&self.0, frame.direction(), value)) {
            Some(rule) => Verdict::drop("drop_if", rule),
            None => Verdict::Forward,
        }
    }
}

/// The guard's tap: calls counted and logged, forwarded messages captured.
#[derive(Debug)]
pub struct Calls {
    report: Arc<Report>,
    log_calls: bool,
}

impl Tap for Calls {
    fn message(
        &self,
        frame: &Frame<'_>,
        message: Result<&Message<'_>, &Refusal>,
        verdict: &Verdict,
    ) {
        let forwarded = verdict.forwards();
        let bytes = frame.bytes();
        if let Ok(message) = message
            && let Some(call) = &message.call
        {
            self.report.call(call.to_string(), bytes.len(), forwarded);
            if self.log_calls {
                let args = describe(message, false).map(|d| d.args).unwrap_or_default();
                self.report.line(&json!({
                    "event": "call", "peer": frame.peer().to_string(),
                    "direction": frame.direction().name(), "from": message.from, "to": message.to,
                    "node": call.node, "method": call.member, "args": args, "forwarded": forwarded,
                }));
            }
        }
        if forwarded {
            let number = u32::try_from(frame.connection().number).unwrap_or(u32::MAX);
            self.report.capture(number, frame.direction(), frame.channel(), false, bytes);
        }
    }
}
