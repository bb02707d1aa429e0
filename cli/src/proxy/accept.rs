//! The accept loop of the connection transports (TCP, WebSocket): accept a client, give it an
//! upstream connection on its own task, relay both directions, stop on a signal. What a
//! transport adds is a [`Transport`]: its handshake, how it connects upstream, and its two
//! pumps.

use std::fmt::Display;
use std::future::Future;
use std::sync::Arc;

use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Semaphore;
use tokio::time::timeout;

use super::report::Report;
use super::settings::Settings;
use super::{Context, End, stop_signal};
use crate::failure::Failure;

/// What a connection transport adds to the accept loop.
pub trait Transport: 'static {
    /// The transport's name in the `listening` line.
    const NAME: &'static str;
    /// The accepted client once its handshake is done.
    type Client: Send;
    /// The connection to the upstream server.
    type Upstream: Send;
    /// Why the upstream connection failed.
    type Error: Display;

    /// The client's handshake (within the idle timeout, given by the loop).
    fn handshake(
        client: TcpStream,
        context: &Context,
    ) -> impl Future<Output = Result<Self::Client, (End, String)>> + Send;

    /// Connects to the upstream server (within the idle timeout, given by the loop).
    fn connect(
        context: &Context,
    ) -> impl Future<Output = Result<Self::Upstream, Self::Error>> + Send;

    /// Relays both directions (see [`both_ways`]) until the connection ends.
    fn relay(
        client: Self::Client,
        upstream: Self::Upstream,
        context: &Context,
    ) -> impl Future<Output = End> + Send;
}

/// Accepts connections until a stop signal; each gets an upstream connection and a relay.
pub async fn serve<T: Transport>(
    settings: Arc<Settings>,
    report: Arc<Report>,
) -> Result<(), Failure> {
    let listener = TcpListener::bind(settings.listen)
        .await
        .map_err(|e| Failure::Input(format!("cannot listen on {}: {e}", settings.listen)))?;
    let addr = listener.local_addr().map_err(|e| Failure::Input(e.to_string()))?;
    // Listen for a stop before saying where the proxy listens: a signal sent on that line is
    // then never missed.
    let stop = stop_signal();
    report.listening(addr, T::NAME);
    let slots = Arc::new(Semaphore::new(settings.max_connections));
    tokio::pin!(stop);
    loop {
        let (client, peer) = tokio::select! {
            () = &mut stop => return Ok(()),
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                // Out of descriptors, or a connection reset before it was accepted: go on.
                Err(_) => {
                    tokio::time::sleep(std::time::Duration::from_millis(5)).await;
                    continue;
                }
            },
        };
        let Ok(slot) = Arc::clone(&slots).try_acquire_owned() else {
            report.refused(peer, true);
            drop(client);
            continue;
        };
        report.connection();
        let context =
            Context { settings: Arc::clone(&settings), report: Arc::clone(&report), peer };
        tokio::spawn(async move {
            let (end, detail) = connection::<T>(client, &context).await;
            context.report.closed(peer, end, detail);
            drop(slot);
        });
    }
}

/// Serves one client: its handshake, the upstream connection, then both directions.
async fn connection<T: Transport>(client: TcpStream, context: &Context) -> (End, Option<String>) {
    let idle = context.settings.idle;
    let client = match timeout(idle, T::handshake(client, context)).await {
        Ok(Ok(client)) => client,
        Ok(Err((end, detail))) => return (end, Some(detail)),
        Err(_) => return (End::Idle, Some("handshake timed out".into())),
    };
    let upstream = match timeout(idle, T::connect(context)).await {
        Ok(Ok(upstream)) => upstream,
        Ok(Err(e)) => return (End::Error, Some(format!("cannot connect upstream: {e}"))),
        Err(_) => return (End::Idle, Some("connecting upstream timed out".into())),
    };
    (T::relay(client, upstream, context).await, None)
}

/// Runs both directions until both end or one must close the whole connection.
pub async fn both_ways(up: impl Future<Output = End>, down: impl Future<Output = End>) -> End {
    tokio::pin!(up, down);
    let (mut up_done, mut down_done) = (false, false);
    while !(up_done && down_done) {
        let end = tokio::select! {
            end = &mut up, if !up_done => { up_done = true; end }
            end = &mut down, if !down_done => { down_done = true; end }
        };
        if end.closes_all() {
            return end;
        }
    }
    End::Closed
}
