//! [`ProxyFilter`]: the proxy's filter on the library's relay (`gdvariant_relay::Filter`).
//!
//! Reading values (TCP, UDP, WebSocket and ENet without `--multiplayer`): the `--drop-if` rules
//! of the frame's direction, then `--rate-limit` on what clients send.
//!
//! `--multiplayer`: each WebSocket message or ENet packet is a Godot multiplayer packet (Godot 4;
//! Godot 3 with its 9-byte WebSocket header or its 8-byte ENet header), decoded and followed per
//! connection by the library (`crate::multiplayer::connection`), judged by the rules file's
//! allow-list, logged as JSON lines with `--log-calls`, and written to the `--capture` file
//! (what is forwarded here; what is dropped by the report, which hears of every drop).
//!
//! What is dropped: a packet Godot would refuse (`invalid_packet`; RPC arguments Godot cannot
//! read included, which Godot 4 would still call the method with), ids that make no sense in
//! the session (`session`), and, with `allow` rules, from clients: calls no rule allows or the
//! proxy cannot name (`not_allowed`), calls over their rule's rate (`rate_limit`), RAW packets
//! without `allow-raw`; then `--rate-limit` on every client packet. What the server sends is
//! decoded, logged and captured, never filtered by the rules.

use std::collections::BTreeMap;
use std::sync::Arc;

use gdvariant::Version;
use gdvariant_multiplayer::capture::{Direction as CaptureDirection, Transport};
use gdvariant_relay::{Connection, Direction, Frame, Verdict};
use serde_json::json;

use super::report::Report;
use super::rules::{RateLimit, refusal};
use super::settings::Settings;
use crate::multiplayer::connection::{Connection as Session, Message};
use crate::multiplayer::rules::Rules;

/// The proxy's filter: its settings and where it reports calls.
#[derive(Debug)]
pub struct ProxyFilter {
    /// The settings (rules, rates, capture, logging).
    pub settings: Arc<Settings>,
    /// The report (call counts and lines).
    pub report: Arc<Report>,
}

/// What the filter keeps per connection.
#[derive(Debug)]
pub enum State {
    /// Reading values: the client's rate limit.
    Values(Option<RateLimit>),
    /// Reading multiplayer packets: the session and its rate limits.
    Multiplayer(Box<Calls>),
}

impl gdvariant_relay::Filter for ProxyFilter {
    type State = State;

    fn open(&self, connection: &Connection) -> State {
        let rate = self.settings.rate_limit.map(RateLimit::new);
        if !self.settings.multiplayer {
            return State::Values(rate);
        }
        let transport = match (self.settings.options.version(), self.settings.enet) {
            (Version::Godot3, false) => Transport::WebSocket3,
            (Version::Godot4, false) => Transport::WebSocket4,
            (Version::Godot3, true) => Transport::Enet3,
            (Version::Godot4, true) => Transport::Packets,
        };
        let client = connection.peer_id.and_then(|id| i32::try_from(id).ok());
        State::Multiplayer(Box::new(Calls::new(
            &self.settings,
            transport,
            client,
            connection,
            rate,
        )))
    }

    fn judge(&self, state: &mut State, frame: &Frame<'_>) -> Verdict {
        match state {
            State::Values(rate) => {
                // The value's head is read only when a rule needs it.
                let rules = &self.settings.drop_if;
                if !rules.is_empty()
                    && let Some(value) = frame.value()
                    && let Some(rule) = refusal(rules, frame.direction(), value)
                {
                    return Verdict::drop("drop_if", rule);
                }
                over_rate(frame, rate, "frames")
            }
            State::Multiplayer(calls) => calls.judge(&self.settings, &self.report, frame),
        }
    }
}

/// `rate_limit` when a client's message is over `--rate-limit` (it takes a token otherwise).
fn over_rate(frame: &Frame<'_>, rate: &mut Option<RateLimit>, what: &str) -> Verdict {
    let Some(rate) = rate.as_mut().filter(|_| frame.direction() == Direction::ToUpstream) else {
        return Verdict::Forward;
    };
    if rate.allow() {
        return Verdict::Forward;
    }
    Verdict::drop("rate_limit", format!("over {} {what} per second", rate.per_second()))
}

/// One multiplayer connection's decoder and rate limits.
#[derive(Debug)]
pub struct Calls {
    session: Session,
    /// Per rule line (its kind: 0 `allow`, 1 `allow-sync`, 2 `allow-spawn`; its index).
    rates: BTreeMap<(u8, usize), RateLimit>,
    raw_rate: Option<RateLimit>,
    /// `--rate-limit`, on every client packet.
    rate: Option<RateLimit>,
    number: u32,
}

impl Calls {
    /// A decoder for a new connection over `transport`, whose client's peer id is `client`
    /// when the transport says it before any packet (ENet's connect data).
    fn new(
        settings: &Settings,
        transport: Transport,
        client: Option<i32>,
        connection: &Connection,
        rate: Option<RateLimit>,
    ) -> Self {
        let methods = settings.rules.as_ref().map(|r| Arc::clone(&r.methods)).unwrap_or_default();
        let raw_rate = settings.rules.as_ref().and_then(|r| r.raw.flatten()).map(RateLimit::new);
        let mut session = Session::new(
            settings.options.version(),
            transport,
            settings.options.allow_objects(),
            methods,
        );
        if let Some(client) = client {
            session.set_client(client);
        }
        let session = session.with_project(settings.project.clone());
        Calls {
            session,
            rates: BTreeMap::new(),
            raw_rate,
            rate,
            number: u32::try_from(connection.number).unwrap_or(u32::MAX),
        }
    }

    /// Judges one message: decodes it, applies the rules and the rate limit, logs the call, and
    /// captures it when it goes on (the report captures what is dropped).
    fn judge(&mut self, settings: &Settings, report: &Report, frame: &Frame<'_>) -> Verdict {
        let direction = frame.direction();
        let capture_direction = match direction {
            Direction::ToUpstream => CaptureDirection::ToServer,
            Direction::ToClient => CaptureDirection::ToClient,
        };
        let channel = frame.channel().map_or(0, |channel| channel.number);
        let bytes = frame.bytes();
        let verdict = match self.session.message(capture_direction, channel, bytes) {
            Err(refusal) => Verdict::drop(refusal.reason, refusal.detail),
            Ok(message) => {
                let mut verdict = if direction == Direction::ToUpstream {
                    self.rules(settings, &message)
                } else {
                    Verdict::Forward
                };
                if verdict == Verdict::Forward && !settings.monitor {
                    verdict = over_rate(frame, &mut self.rate, "packets");
                }
                let forwarded = verdict == Verdict::Forward;
                if let Some(call) = &message.call {
                    report.call(call.key(), bytes.len(), forwarded);
                    if settings.log_calls {
                        report.line(&json!({
                            "event": "call", "peer": frame.peer().to_string(), "direction": direction.name(),
                            "from": message.from, "to": message.to, "node": call.node, "method": call.member,
                            "args": call.args, "forwarded": forwarded,
                        }));
                    }
                }
                verdict
            }
        };
        if verdict == Verdict::Forward {
            report.capture(self.number, capture_direction, frame.channel(), false, bytes);
        }
        verdict
    }

    /// The allow-list's verdict on a message from the client.
    fn rules(&mut self, settings: &Settings, message: &Message) -> Verdict {
        let Some(rules) = settings.rules.as_ref() else { return Verdict::Forward };
        if !message.replicas.is_empty() {
            return self.replicas(rules, message);
        }
        if !rules.filters() {
            return Verdict::Forward;
        }
        if message.raw {
            if rules.raw.is_none() {
                return Verdict::drop("not_allowed", "raw packets are not allowed");
            }
            if self.raw_rate.as_mut().is_some_and(|rate| !rate.allow()) {
                return Verdict::drop("rate_limit", "allow-raw");
            }
            return Verdict::Forward;
        }
        let Some(call) = &message.call else { return Verdict::Forward };
        let (Some(node), Some(member)) = (call.node.as_deref(), call.member.as_deref()) else {
            return Verdict::drop("not_allowed", format!("cannot name the call {}", call.key()));
        };
        if !call.canonical {
            return Verdict::drop(
                "not_allowed",
                format!("node path not spelled as Godot spells it: {node:?}"),
            );
        }
        let Some((index, rule)) = rules.allowing(node, member) else {
            return Verdict::drop("not_allowed", call.key());
        };
        if let Some(per_second) = rule.rate {
            let rate = self.rates.entry((0, index)).or_insert_with(|| RateLimit::new(per_second));
            if !rate.allow() {
                return Verdict::drop("rate_limit", format!("{}: {}", call.key(), rule.text));
            }
        }
        Verdict::Forward
    }

    /// The allow-list's verdict on what a client's SYNC, DELTA_SYNC or SPAWN replicates: with
    /// `allow-sync` (`allow-spawn`) lines, each synchronizer's node and every property it
    /// carries (each spawner and its scene) must be allowed, and named; at most each line's rate.
    fn replicas(&mut self, rules: &Rules, message: &Message) -> Verdict {
        let mut used: Vec<(u8, usize, u32, &str)> = Vec::new();
        for replica in &message.replicas {
            let (kind, lines, what) = if replica.spawn {
                (2u8, &rules.allow_spawn, "spawn")
            } else {
                (1u8, &rules.allow_sync, "sync")
            };
            if lines.is_empty() {
                continue;
            }
            let Some(node) = replica.node.as_deref() else {
                return Verdict::drop("not_allowed", format!("cannot name the {what}'s node"));
            };
            let Some(members) = &replica.members else {
                return Verdict::drop(
                    "not_allowed",
                    format!("cannot name what the {what} of {node} carries (--project)"),
                );
            };
            for member in members {
                let found = if replica.spawn {
                    rules.allowing_spawn(node, member)
                } else {
                    rules.allowing_sync(node, member)
                };
                let Some((index, rule)) = found else {
                    return Verdict::drop("not_allowed", format!("{what} {node}: {member}"));
                };
                if let Some(rate) = rule.rate
                    && !used.iter().any(|&(k, i, ..)| (k, i) == (kind, index))
                {
                    used.push((kind, index, rate, rule.text.as_str()));
                }
            }
        }
        // Each line that allowed something takes one token per message.
        for (kind, index, per_second, text) in used {
            let rate =
                self.rates.entry((kind, index)).or_insert_with(|| RateLimit::new(per_second));
            if !rate.allow() {
                return Verdict::drop("rate_limit", text.to_string());
            }
        }
        Verdict::Forward
    }
}
