//! The accept loop of the connection transports (TCP, WebSocket): accept a client, give it an
//! upstream connection on its own task, relay both directions, stop when told. What a
//! transport adds is a [`Stream`]: its handshake, how it connects upstream, and its two pumps.
//! When the loop stops, the connections still open stop reading, finish their writes, close and
//! are reported; the loop returns once they have.

use std::future::Future;
use std::io;
use std::sync::Arc;

use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Semaphore;
use tokio::task::JoinSet;
use tokio::time::timeout;

use crate::config::Config;
use crate::filter::Filter;
use crate::link::{Link, STOPPED, Shared};
use crate::observer::{End, Observer};

/// What a connection transport adds to the accept loop.
pub(crate) trait Stream: 'static {
    /// The accepted client once its handshake is done.
    type Client: Send;
    /// The connection to the upstream server.
    type Upstream: Send;

    /// The client's handshake (within the idle timeout, given by the loop).
    fn handshake(
        client: TcpStream,
        config: &Config,
    ) -> impl Future<Output = Result<Self::Client, String>> + Send;

    /// Connects to the upstream server (within the idle timeout, given by the loop).
    fn connect(config: &Config) -> impl Future<Output = Result<Self::Upstream, String>> + Send;

    /// Relays both directions (see [`both_ways`]) until the connection ends.
    fn relay<F: Filter, O: Observer>(
        client: Self::Client,
        upstream: Self::Upstream,
        link: &Link<F, O>,
    ) -> impl Future<Output = End> + Send;
}

/// Accepts connections until `stop` resolves; each gets an upstream connection and a relay.
pub(crate) async fn serve<T: Stream, F: Filter, O: Observer>(
    listener: TcpListener,
    shared: Arc<Shared<F, O>>,
    stop: impl Future,
) -> io::Result<()> {
    let slots = Arc::new(Semaphore::new(shared.config.max_connections));
    let mut connections = JoinSet::new();
    tokio::pin!(stop);
    loop {
        let (client, peer) = tokio::select! {
            _ = &mut stop => break,
            Some(_) = connections.join_next(), if !connections.is_empty() => continue,
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
            shared.observer.refused(peer);
            drop(client);
            continue;
        };
        let link = shared.open(peer, None);
        connections.spawn(async move {
            // After a stop, a connection gets one idle timeout to finish its writes and close;
            // past it, it ends there (reported as a write that did not finish).
            let stopping = &link.shared.stopping;
            let grace = async {
                stopping.cancelled().await;
                tokio::time::sleep(link.config().idle).await;
            };
            let (end, mut detail) = tokio::select! {
                ended = connection::<T, F, O>(client, &link) => ended,
                () = grace => (End::Idle, Some(format!("{STOPPED}; a write did not finish"))),
            };
            if end == End::Closed && detail.is_none() && stopping.is_cancelled() {
                detail = Some(STOPPED.into());
            }
            link.closed(end, detail.as_deref());
            drop(slot);
        });
    }
    // Stopped: no new clients; each connection stops reading, writes what it had accepted
    // (within one idle timeout), closes its sides and is reported. Aborting them instead would
    // lose what they had read and not written, with nothing said.
    drop(listener);
    shared.stopping.cancel();
    while connections.join_next().await.is_some() {}
    Ok(())
}

/// Serves one client: its handshake, the upstream connection, then both directions.
async fn connection<T: Stream, F: Filter, O: Observer>(
    client: TcpStream,
    link: &Link<F, O>,
) -> (End, Option<String>) {
    let config = link.config();
    let idle = config.idle;
    let stopping = &link.shared.stopping;
    let stopped = || (End::Closed, Some(STOPPED.to_string()));
    let client = tokio::select! {
        _ = stopping.cancelled() => return stopped(),
        handshake = timeout(idle, T::handshake(client, config)) => match handshake {
            Ok(Ok(client)) => client,
            Ok(Err(detail)) => return (End::Error, Some(detail)),
            Err(_) => return (End::Idle, Some("handshake timed out".into())),
        },
    };
    let upstream = tokio::select! {
        _ = stopping.cancelled() => return stopped(),
        connect = timeout(idle, T::connect(config)) => match connect {
            Ok(Ok(upstream)) => upstream,
            Ok(Err(e)) => return (End::Error, Some(format!("cannot connect upstream: {e}"))),
            Err(_) => return (End::Idle, Some("connecting upstream timed out".into())),
        },
    };
    (T::relay(client, upstream, link).await, None)
}

/// Runs both directions until both end or one must close the whole connection.
pub(crate) async fn both_ways(
    up: impl Future<Output = End>,
    down: impl Future<Output = End>,
) -> End {
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
