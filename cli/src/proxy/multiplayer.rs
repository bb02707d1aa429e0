//! `--multiplayer`: each WebSocket message or ENet packet is a Godot multiplayer packet (Godot 4;
//! Godot 3 with its 9-byte WebSocket header or its 8-byte ENet header), decoded and followed per
//! connection by the library
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
use crate::multiplayer::connection::{Connection, Message, Refusal};

/// Where a message came: its transport channel and transfer mode, as a capture records them
/// (0 and reliable where the transport has neither, as over WebSocket).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Channel {
    /// The channel (ENet's channel id).
    pub number: u8,
    /// The transfer mode: 0 reliable, 1 unreliable, 2 unreliable ordered.
    pub mode: u8,
}

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
    /// A filter for a new WebSocket connection.
    pub fn new(context: &Context) -> Self {
        let transport = match context.settings.options.version() {
            Version::Godot3 => Transport::WebSocket3,
            Version::Godot4 => Transport::WebSocket4,
        };
        Filter::over(context, transport, None)
    }

    /// A filter for a new connection over `transport`, whose client's peer id is `client` when
    /// the transport says it before any packet (ENet's connect data).
    pub fn over(context: &Context, transport: Transport, client: Option<i32>) -> Self {
        let settings = &context.settings;
        let methods =
            settings.rules.as_ref().map(|r| std::sync::Arc::clone(&r.methods)).unwrap_or_default();
        let raw_rate = settings.rules.as_ref().and_then(|r| r.raw.flatten()).map(RateLimit::new);
        let mut connection = Connection::new(
            settings.options.version(),
            transport,
            settings.options.allow_objects(),
            methods,
        );
        if let Some(client) = client {
            connection.set_client(client);
        }
        Filter {
            connection,
            rates: BTreeMap::new(),
            raw_rate,
            number: settings.capture.as_ref().map_or(0, |c| c.connection()),
        }
    }

    /// Judges one message going `direction`: decodes it, applies the rules, logs the call and
    /// captures the message.
    pub fn judge(&mut self, context: &Context, direction: Direction, bytes: &[u8]) -> Verdict {
        self.judge_on(context, direction, Channel::default(), bytes, None)
    }

    /// [`Filter::judge`] for a message that came on `channel`, which the transport already
    /// refused when `refused` is given (it is then captured, flagged dropped, and not decoded).
    pub fn judge_on(
        &mut self,
        context: &Context,
        direction: Direction,
        channel: Channel,
        bytes: &[u8],
        refused: Option<(&'static str, String)>,
    ) -> Verdict {
        let capture_direction = match direction {
            Direction::ToUpstream => CaptureDirection::ToServer,
            Direction::ToClient => CaptureDirection::ToClient,
        };
        let decoded = match refused {
            Some((reason, detail)) => Err(Refusal { reason, detail }),
            None => self.connection.message(capture_direction, channel.number, bytes),
        };
        let verdict = match decoded {
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
            capture.record(self.number, capture_direction, channel, dropped, bytes);
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
