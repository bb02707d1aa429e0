//! [`Guard`]: the multiplayer guard, a filter built from the tracker and the rules.

use std::sync::Arc;

use gdvariant_multiplayer::project::ProjectIndex;
use gdvariant_multiplayer::rules::{Rates, Rules};
use gdvariant_multiplayer::session::Limits;
use gdvariant_multiplayer::track::{LIMITS, Message, Refusal, Tracker};

use crate::config::Messages;
use crate::filter::{Connection, Direction, Filter, Frame, Verdict};
use crate::rate::RateLimit;

/// Hears of every message a [`Guard`] read, with what the guard decided, before the relay acts
/// on it: for logs, statistics, captures. Called on the connection's task: keep it short.
pub trait Tap: Send + Sync + 'static {
    /// `message` is what the tracker read (or why it refused the message); `verdict` what the
    /// guard decided. With [`Config::dry_run`](crate::Config::dry_run) a drop is forwarded
    /// anyway.
    fn message(
        &self,
        frame: &Frame<'_>,
        message: Result<&Message<'_>, &Refusal>,
        verdict: &Verdict,
    );
}

/// Hears nothing.
impl Tap for () {
    fn message(&self, _: &Frame<'_>, _: Result<&Message<'_>, &Refusal>, _: &Verdict) {}
}

/// The multiplayer guard: a [`Filter`] that follows each connection's Godot
/// multiplayer traffic with a [`Tracker`] and lets through from clients only what the [`Rules`]
/// allow.
///
/// Per message: the tracker reads the transport's header, decodes and validates the packet
/// (Godot 3 over ENet: the relay has already checked the 8-byte header), follows the session's
/// ids and names the call, spawn or sync; a message the game would refuse is dropped as
/// `invalid_packet` (or `session`, for ids that make no sense); then, for what clients send, the
/// rules decide (`not_allowed`, `rate_limit`), and last an optional per-client rate limit over
/// every client message. What the server sends is read and followed, never judged by the
/// rules. A [`Tap`] hears of every message with its verdict (logs, statistics, captures).
///
/// Costs per message: the tracker's (O(bytes + log entries + path lengths)) and the rules'
/// (O(lines x path length) per named member); drops allocate nothing. Memory per connection:
/// the tracker's session, bounded by its [`Limits`] (16,384 ids and 1 MiB by default), and one
/// rate limiter per rule line the client used.
///
/// ```no_run
/// use gdvariant::Version;
/// use gdvariant_multiplayer::rules::Rules;
/// use gdvariant_relay::{Config, Guard, Log, Messages, Relay, Transport};
///
/// # async fn serve() -> Result<(), Box<dyn std::error::Error>> {
/// let rules = Rules::parse("allow Main r_all\nallow Main done\nallow Main state 10/s\n")?;
/// let config = Config::new(Version::Godot3, Transport::Enet, "0.0.0.0:4000".parse()?, "127.0.0.1:4001")
///     .messages(Messages::Multiplayer);
/// let relay = Relay::bind(config).await?;
/// relay.run(Guard::new(rules), Log, tokio::signal::ctrl_c()).await?;
/// # Ok(())
/// # }
/// ```
#[derive(Debug)]
pub struct Guard<T = ()> {
    rules: Arc<Rules>,
    project: Option<Arc<ProjectIndex>>,
    limits: Limits,
    rate: Option<RateLimit>,
    tap: T,
}

impl Guard {
    /// A guard applying `rules` (their method lists name Godot 4 methods), with the tracker's
    /// default [`LIMITS`], no project, no rate limit beyond the rules' and no tap.
    pub fn new(rules: impl Into<Arc<Rules>>) -> Self {
        Guard { rules: rules.into(), project: None, limits: LIMITS, rate: None, tap: () }
    }
}

impl<T: Tap> Guard<T> {
    /// Names what SPAWN and SYNC carry (and Godot 4 methods the rules do not list) from the
    /// game's project, so that `allow-sync` and `allow-spawn` lines can name them. Combine the
    /// project's method lists into the rules with
    /// [`Rules::with_project`](gdvariant_multiplayer::rules::Rules::with_project).
    pub fn with_project(mut self, project: Option<Arc<ProjectIndex>>) -> Self {
        self.project = project;
        self
    }

    /// What each connection's session keeps at most.
    pub fn with_limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    /// After the rules, at most `rate` messages a second from each client.
    pub fn with_rate_limit(mut self, rate: Option<RateLimit>) -> Self {
        self.rate = rate;
        self
    }

    /// Tells `tap` of every message and verdict.
    pub fn with_tap<U: Tap>(self, tap: U) -> Guard<U> {
        let Guard { rules, project, limits, rate, tap: _ } = self;
        Guard { rules, project, limits, rate, tap }
    }

    /// The rules.
    pub fn rules(&self) -> &Arc<Rules> {
        &self.rules
    }

    /// The tap.
    pub fn tap(&self) -> &T {
        &self.tap
    }
}

/// What a [`Guard`] keeps per connection: its tracker and its rate limiters.
#[derive(Debug)]
pub struct GuardState {
    tracker: Tracker,
    rates: Rates,
    rate: Option<<RateLimit as Filter>::State>,
}

impl GuardState {
    /// The connection's tracker.
    pub fn tracker(&self) -> &Tracker {
        &self.tracker
    }
}

impl<T: Tap> Filter for Guard<T> {
    type State = GuardState;

    fn open(&self, connection: &Connection) -> GuardState {
        let tracker = connection
            .tracker(Arc::clone(self.rules.methods()))
            .with_limits(self.limits)
            .with_project(self.project.clone());
        GuardState {
            tracker,
            rates: Rates::default(),
            rate: self.rate.as_ref().map(|rate| rate.open(connection)),
        }
    }

    fn judge(&self, state: &mut GuardState, frame: &Frame<'_>) -> Verdict {
        let direction = frame.direction();
        let channel = frame.channel().map_or(0, |channel| channel.number);
        match state.tracker.message(direction, channel, frame.bytes()) {
            Err(refusal) => {
                let verdict = Verdict::drop(refusal.reason(), refusal);
                self.tap.message(frame, Err(&refusal), &verdict);
                verdict
            }
            Ok(message) => {
                let mut verdict = Verdict::Forward;
                if direction == Direction::ToServer {
                    let decision = self.rules.judge(&mut state.rates, &message);
                    if let Some(reason) = decision.reason() {
                        verdict = Verdict::drop(reason, decision);
                    }
                }
                if let (Verdict::Forward, Some(rate), Some(limiter)) =
                    (&verdict, &self.rate, &mut state.rate)
                {
                    verdict = rate.judge(limiter, frame);
                }
                self.tap.message(frame, Ok(&message), &verdict);
                verdict
            }
        }
    }

    fn reads(&self) -> Option<Messages> {
        Some(Messages::Multiplayer)
    }
}
