//! Filters that compose: [`Chain`] (one filter, then another), an optional filter
//! (`Option<F>`: none judges nothing), and [`FilterExt::then`] to build chains.

use crate::config::Messages;
use crate::filter::{Connection, Filter, Frame, Verdict};

/// Two filters, one after the other: a message goes on only if both forward it; the first
/// drop's verdict is the chain's (the second filter does not see what the first dropped). Its
/// state is both states. Costs: the two filters'.
#[derive(Clone, Debug)]
pub struct Chain<A, B> {
    first: A,
    second: B,
}

impl<A: Filter, B: Filter> Filter for Chain<A, B> {
    type State = (A::State, B::State);

    fn open(&self, connection: &Connection) -> Self::State {
        (self.first.open(connection), self.second.open(connection))
    }

    fn judge(&self, (first, second): &mut Self::State, frame: &Frame<'_>) -> Verdict {
        match self.first.judge(first, frame) {
            Verdict::Forward => self.second.judge(second, frame),
            drop => drop,
        }
    }

    /// The kind either filter needs (the first's when both name one).
    fn reads(&self) -> Option<Messages> {
        self.first.reads().or_else(|| self.second.reads())
    }
}

/// No filter (`None`) forwards everything; `Some(filter)` is the filter.
impl<F: Filter> Filter for Option<F> {
    type State = Option<F::State>;

    fn open(&self, connection: &Connection) -> Self::State {
        self.as_ref().map(|filter| filter.open(connection))
    }

    fn judge(&self, state: &mut Self::State, frame: &Frame<'_>) -> Verdict {
        match (self, state) {
            (Some(filter), Some(state)) => filter.judge(state, frame),
            _ => Verdict::Forward,
        }
    }

    fn reads(&self) -> Option<Messages> {
        self.as_ref().and_then(Filter::reads)
    }
}

/// Combinators for every [`Filter`].
pub trait FilterExt: Filter + Sized {
    /// This filter, then `next` on what this one forwards ([`Chain`]).
    ///
    /// ```
    /// use gdvariant_relay::{Direction, FilterExt, Frame, RateLimit, Verdict};
    ///
    /// // Drop what clients send on ENet channel 2, then limit each client to 30 messages a second.
    /// let no_channel_2 = |frame: &Frame| match frame.channel() {
    ///     Some(c) if c.number == 2 && frame.direction() == Direction::ToServer => {
    ///         Verdict::drop("channel", "channel 2 is the server's")
    ///     }
    ///     _ => Verdict::Forward,
    /// };
    /// let filter = no_channel_2.then(RateLimit::per_second(30));
    /// # let _ = filter;
    /// ```
    fn then<B: Filter>(self, next: B) -> Chain<Self, B> {
        Chain { first: self, second: next }
    }
}

impl<F: Filter> FilterExt for F {}
