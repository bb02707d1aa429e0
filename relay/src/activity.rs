//! [`Activity`]: when a connection last carried a complete frame, shared by its two directions,
//! for the idle timeout.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use tokio::time::Instant;

/// The time of the last complete frame of a connection, in either direction.
#[derive(Debug)]
pub struct Activity {
    start: Instant,
    /// Milliseconds after `start`.
    last: AtomicU64,
}

impl Activity {
    /// A connection that starts now.
    pub fn new() -> Self {
        Activity { start: Instant::now(), last: AtomicU64::new(0) }
    }

    /// A complete frame went through now.
    pub fn touch(&self) {
        self.last.fetch_max(self.now(), Ordering::Relaxed);
    }

    /// Milliseconds since the start.
    fn now(&self) -> u64 {
        u64::try_from(self.start.elapsed().as_millis()).unwrap_or(u64::MAX)
    }

    /// Time left before the connection has been idle for `idle`; zero once it has.
    pub fn left(&self, idle: Duration) -> Duration {
        let idle = u64::try_from(idle.as_millis()).unwrap_or(u64::MAX);
        let deadline = self.last.load(Ordering::Relaxed).saturating_add(idle);
        Duration::from_millis(deadline.saturating_sub(self.now()))
    }
}
