//! [`RateLimit`]: a filter that limits what each client sends, in messages per second, with the
//! `governor` crate's limiters (GCRA on the monotonic clock).

use std::num::NonZeroU32;

use governor::{DefaultDirectRateLimiter, Quota, RateLimiter};

use crate::filter::{Connection, Direction, Filter, Frame, Verdict};

/// At most `rate` messages a second from each client (a burst of one second's worth, then the
/// rate); the excess is dropped as `rate_limit`. What the server sends is not limited. State:
/// one limiter per connection (a few words); O(1) per message, no allocation.
#[derive(Clone, Copy, Debug)]
pub struct RateLimit {
    rate: NonZeroU32,
    noun: &'static str,
}

impl RateLimit {
    /// `rate` messages a second per client (0 counts as 1).
    pub fn per_second(rate: u32) -> Self {
        RateLimit { rate: NonZeroU32::new(rate).unwrap_or(NonZeroU32::MIN), noun: "messages" }
    }

    /// What the drop's detail calls a message (`over 30 frames per second`); `messages` by
    /// default.
    pub fn named(mut self, noun: &'static str) -> Self {
        self.noun = noun;
        self
    }

    /// The rate, in messages per second.
    pub fn rate(&self) -> u32 {
        self.rate.get()
    }
}

impl Filter for RateLimit {
    type State = DefaultDirectRateLimiter;

    fn open(&self, _: &Connection) -> Self::State {
        RateLimiter::direct(Quota::per_second(self.rate))
    }

    fn judge(&self, limiter: &mut Self::State, frame: &Frame<'_>) -> Verdict {
        if frame.direction() != Direction::ToServer || limiter.check().is_ok() {
            return Verdict::Forward;
        }
        Verdict::drop("rate_limit", format_args!("over {} {} per second", self.rate, self.noun))
    }
}
