//! `--multiplayer`: each WebSocket message is a Godot multiplayer packet (Godot 4, or Godot 3
//! with its 9-byte header), decoded and followed per connection by the library
//! (`crate::multiplayer::connection`), judged by the rules file's allow-list, logged as JSON
//! lines with `--log-calls`, and written to the `--capture` file.
//!
//! What is dropped: a packet Godot would refuse (`invalid_packet`; RPC arguments Godot cannot
//! read included, which Godot 4 would still call the method with), ids that make no sense in
//! the session (`session`), and, with `allow` rules, from clients: calls no rule allows or the
//! proxy cannot name (`not_allowed`), calls over their rule's rate (`rate_limit`), RAW packets
//! without `allow-raw`. What the server sends is decoded, logged and captured, never filtered by
//! the rules.

use std::collections::BTreeMap;

use gdvariant::Version;
use gdvariant_multiplayer::capture::{Direction as CaptureDirection, Transport};
use serde_json::json;

use super::rules::RateLimit;
use super::{Context, Direction};
use crate::multiplayer::connection::{Connection, Message};

/// One connection's decoder and rate limits.
#[derive(Debug)]
pub struct Filter {
    connection: Connection,
    rates: BTreeMap<usize, RateLimit>,
    raw_rate: Option<RateLimit>,
    number: u32,
}

/// What to do with a message.
#[derive(Debug)]
pub enum Verdict {
    /// Forward it.
    Forward,
    /// Drop it, for `reason` (`detail` says more).
    Drop(&'static str, String),
}

impl Filter {
    /// A filter for a new connection.
    pub fn new(context: &Context) -> Self {
        let settings = &context.settings;
        let transport = match settings.options.version() {
            Version::Godot3 => Transport::WebSocket3,
            Version::Godot4 => Transport::WebSocket4,
        };
        let methods =
            settings.rules.as_ref().map(|r| std::sync::Arc::clone(&r.methods)).unwrap_or_default();
        let raw_rate = settings.rules.as_ref().and_then(|r| r.raw.flatten()).map(RateLimit::new);
        Filter {
            connection: Connection::new(
                settings.options.version(),
                transport,
                settings.options.allow_objects(),
                methods,
            ),
            rates: BTreeMap::new(),
            raw_rate,
            number: settings.capture.as_ref().map_or(0, |c| c.connection()),
        }
    }

    /// Judges one message going `direction`: decodes it, applies the rules, logs the call and
    /// captures the message.
    pub fn judge(&mut self, context: &Context, direction: Direction, bytes: &[u8]) -> Verdict {
        let capture_direction = match direction {
            Direction::ToUpstream => CaptureDirection::ToServer,
            Direction::ToClient => CaptureDirection::ToClient,
        };
        let verdict = match self.connection.message(capture_direction, 0, bytes) {
            Err(refusal) => Verdict::Drop(refusal.reason, refusal.detail),
            Ok(message) => {
                let verdict = if direction == Direction::ToUpstream {
                    self.rules(context, &message)
                } else {
                    Verdict::Forward
                };
                let forwarded = matches!(verdict, Verdict::Forward);
                if let Some(call) = &message.call {
                    context.report.call(call.key(), bytes.len(), forwarded);
                    if context.settings.log_calls {
                        context.report.line(&json!({
                            "event": "call", "peer": context.peer.to_string(), "direction": direction.name(),
                            "from": message.from, "to": message.to, "node": call.node, "method": call.member,
                            "args": call.args, "forwarded": forwarded,
                        }));
                    }
                }
                verdict
            }
        };
        if let Some(capture) = &context.settings.capture {
            let dropped = matches!(verdict, Verdict::Drop(..)) && !context.settings.monitor;
            capture.record(self.number, capture_direction, dropped, bytes);
        }
        verdict
    }

    /// The allow-list's verdict on a message from the client.
    fn rules(&mut self, context: &Context, message: &Message) -> Verdict {
        let Some(rules) = context.settings.rules.as_ref().filter(|r| r.filters()) else {
            return Verdict::Forward;
        };
        if message.raw {
            if rules.raw.is_none() {
                return Verdict::Drop("not_allowed", "raw packets are not allowed".into());
            }
            if self.raw_rate.as_mut().is_some_and(|rate| !rate.allow()) {
                return Verdict::Drop("rate_limit", "allow-raw".into());
            }
            return Verdict::Forward;
        }
        let Some(call) = &message.call else { return Verdict::Forward };
        let (Some(node), Some(member)) = (call.node.as_deref(), call.member.as_deref()) else {
            return Verdict::Drop("not_allowed", format!("cannot name the call {}", call.key()));
        };
        if !call.canonical {
            return Verdict::Drop(
                "not_allowed",
                format!("node path not spelled as Godot spells it: {node:?}"),
            );
        }
        let Some((index, rule)) = rules.allowing(node, member) else {
            return Verdict::Drop("not_allowed", call.key());
        };
        if let Some(per_second) = rule.rate {
            let rate = self.rates.entry(index).or_insert_with(|| RateLimit::new(per_second));
            if !rate.allow() {
                return Verdict::Drop("rate_limit", format!("{}: {}", call.key(), rule.text));
            }
        }
        Verdict::Forward
    }
}
