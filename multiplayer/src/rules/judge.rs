//! [`Rules::judge`]: the allow-list's [`Decision`] on one message from a client, with the
//! client's [`Rates`].

use alloc::collections::BTreeMap;
use alloc::vec::Vec;
use core::fmt;
use core::num::NonZeroU32;

use governor::{DefaultDirectRateLimiter, Quota, RateLimiter};

use super::{Allow, Rules};
use crate::track::{Call, Message, ReplicaKind};

/// One client's rate limiters: one per rule line with a rate, made the first time the line is
/// used, and `allow-raw`'s. Keep one per connection.
#[derive(Debug, Default)]
pub struct Rates {
    /// Per line: (`None` for `allow`, else the replica kind; its index).
    lines: BTreeMap<(Option<ReplicaKind>, usize), DefaultDirectRateLimiter>,
    raw: Option<DefaultDirectRateLimiter>,
}

/// A limiter of `per_second` messages a second, with a burst of one second's worth.
fn limiter(per_second: u32) -> DefaultDirectRateLimiter {
    let rate = NonZeroU32::new(per_second).unwrap_or(NonZeroU32::MIN);
    RateLimiter::direct(Quota::per_second(rate))
}

impl Rates {
    /// Whether line (`kind`, `index`) with rate `per_second` lets one more message go now (it
    /// takes a token).
    fn take(&mut self, kind: Option<ReplicaKind>, index: usize, per_second: u32) -> bool {
        crate::work(1);
        self.lines.entry((kind, index)).or_insert_with(|| limiter(per_second)).check().is_ok()
    }

    /// Whether `allow-raw`'s rate lets one more RAW packet go now.
    fn take_raw(&mut self, per_second: u32) -> bool {
        self.raw.get_or_insert_with(|| limiter(per_second)).check().is_ok()
    }
}

/// What the rules say of a message, and why. Its [`Display`](fmt::Display) says what was
/// refused (the call, the line, the property), as logs show it.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub enum Decision<'r> {
    /// It passes: allowed by a line, or of a kind the rules do not filter.
    Pass(Option<&'r Allow>),
    /// No `allow` line allows the call.
    NotAllowed(&'r Call<'r>),
    /// The call cannot be named (an unknown cache id, a method id no verified list names).
    Unnamed(&'r Call<'r>),
    /// The call's node path is not spelled as Godot's sender spells it.
    NotCanonical(&'r str),
    /// RAW bytes without an `allow-raw` line.
    RawNotAllowed,
    /// A spawn or synchronizer whose node the session cannot name.
    UnnamedReplica(ReplicaKind),
    /// A spawn or synchronizer whose scene or properties cannot be named (no project, or one
    /// that does not describe it).
    UnnamedMembers(ReplicaKind, &'r str),
    /// A scene or property of `node` that no line allows.
    ReplicaNotAllowed {
        /// A spawn or a synchronizer.
        kind: ReplicaKind,
        /// Its node.
        node: &'r str,
        /// The scene or property.
        member: &'r str,
    },
    /// Over the rate of a line (`None`: `allow-raw`'s) for the call (if it is one).
    RateLimit(Option<&'r Allow>, Option<&'r Call<'r>>),
}

impl Decision<'_> {
    /// Whether the message passes.
    pub fn passes(&self) -> bool {
        matches!(self, Decision::Pass(_))
    }

    /// `None` when it passes; else `not_allowed` or `rate_limit`.
    pub fn reason(&self) -> Option<&'static str> {
        match self {
            Decision::Pass(_) => None,
            Decision::RateLimit(..) => Some("rate_limit"),
            _ => Some("not_allowed"),
        }
    }
}

/// `spawn` or `sync`.
fn what(kind: ReplicaKind) -> &'static str {
    match kind {
        ReplicaKind::Spawn => "spawn",
        ReplicaKind::Sync => "sync",
    }
}

impl fmt::Display for Decision<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Decision::Pass(Some(line)) => write!(f, "allowed by {}", line.text),
            Decision::Pass(None) => f.write_str("not filtered"),
            Decision::NotAllowed(call) => write!(f, "{call}"),
            Decision::Unnamed(call) => write!(f, "cannot name the call {call}"),
            Decision::NotCanonical(node) => {
                write!(f, "node path not spelled as Godot spells it: {node:?}")
            }
            Decision::RawNotAllowed => f.write_str("raw packets are not allowed"),
            Decision::UnnamedReplica(kind) => write!(f, "cannot name the {}'s node", what(kind)),
            Decision::UnnamedMembers(kind, node) => {
                write!(f, "cannot name what the {} of {node} carries (no project)", what(kind))
            }
            Decision::ReplicaNotAllowed { kind, node, member } => {
                write!(f, "{} {node}: {member}", what(kind))
            }
            Decision::RateLimit(Some(line), Some(call)) => write!(f, "{call}: {}", line.text),
            Decision::RateLimit(Some(line), None) => f.write_str(&line.text),
            Decision::RateLimit(None, _) => f.write_str("allow-raw"),
        }
    }
}

impl Rules {
    /// The allow-list's decision on `message`, sent by the client whose limiters are `rates`
    /// (a message from the server is not the allow-list's to judge: pass it without asking).
    /// See the [module docs](super) for what passes. O(lines x path length) per named member.
    pub fn judge<'r>(&'r self, rates: &mut Rates, message: &'r Message<'r>) -> Decision<'r> {
        if !message.synced.is_empty() || message.spawn.is_some() {
            return self.judge_replicas(rates, message);
        }
        if !self.filters() {
            return Decision::Pass(None);
        }
        if message.raw().is_some() {
            return match self.raw {
                None => Decision::RawNotAllowed,
                Some(Some(rate)) if !rates.take_raw(rate) => Decision::RateLimit(None, None),
                Some(_) => Decision::Pass(None),
            };
        }
        let Some(call) = &message.call else { return Decision::Pass(None) };
        let (Some(node), Some(member)) = (call.node.as_deref(), call.member.as_deref()) else {
            return Decision::Unnamed(call);
        };
        if !call.canonical {
            return Decision::NotCanonical(node);
        }
        let found = self.allow.iter().enumerate().find(|(_, line)| line.allows(node, member));
        let Some((index, line)) = found else { return Decision::NotAllowed(call) };
        match line.rate {
            Some(rate) if !rates.take(None, index, rate) => {
                Decision::RateLimit(Some(line), Some(call))
            }
            _ => Decision::Pass(Some(line)),
        }
    }

    /// What a SYNC, DELTA_SYNC or SPAWN replicates: with `allow-sync` (`allow-spawn`) lines,
    /// each synchronizer's node and every property it carries (each spawner and its scene) must
    /// be allowed, and named; each line that allowed something takes one token.
    fn judge_replicas<'r>(&'r self, rates: &mut Rates, message: &'r Message<'r>) -> Decision<'r> {
        for replica in message.replicas() {
            let lines = self.replicas(replica.kind);
            if lines.is_empty() {
                continue;
            }
            let Some(node) = replica.node else {
                return Decision::UnnamedReplica(replica.kind);
            };
            let Some(members) = replica.members else {
                return Decision::UnnamedMembers(replica.kind, node);
            };
            for member in members.iter() {
                if !lines.iter().any(|line| line.allows(node, member)) {
                    return Decision::ReplicaNotAllowed { kind: replica.kind, node, member };
                }
            }
        }
        // Every member is allowed: each line that allowed one (the first that matched it)
        // takes one token per message.
        let mut used: Vec<(ReplicaKind, usize)> = Vec::new();
        let mut last = None;
        for replica in message.replicas() {
            let lines = self.replicas(replica.kind);
            let (Some(node), Some(members)) = (replica.node, replica.members) else { continue };
            for member in members.iter() {
                let found = lines.iter().enumerate().find(|(_, line)| line.allows(node, member));
                let Some((index, line)) = found else { continue };
                last = Some(line);
                let Some(rate) = line.rate else { continue };
                if used.contains(&(replica.kind, index)) {
                    continue;
                }
                used.push((replica.kind, index));
                if !rates.take(Some(replica.kind), index, rate) {
                    return Decision::RateLimit(Some(line), None);
                }
            }
        }
        Decision::Pass(last)
    }
}
