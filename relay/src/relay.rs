//! [`Relay`]: a bound listener and its config; [`Relay::run`] serves clients over the config's
//! transport until told to stop.

use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::sync::Arc;

use tokio::net::{TcpListener, UdpSocket};

use crate::config::{Config, Transport};
use crate::filter::Filter;
use crate::link::Shared;
use crate::observer::Observer;

/// A relay whose listening socket is bound: [`Relay::local_addr`] says where (port 0 picked one),
/// [`Relay::run`] serves.
#[derive(Debug)]
pub struct Relay {
    config: Config,
    listener: Listener,
    local: SocketAddr,
}

/// The listening socket.
#[derive(Debug)]
enum Listener {
    /// TCP and WebSocket.
    Stream(TcpListener),
    /// UDP and ENet, with the upstream address resolved once.
    Datagrams(Arc<UdpSocket>, SocketAddr),
}

/// The unspecified address of `upstream`'s family, any port: where an upstream socket binds.
pub(crate) fn any_port(upstream: SocketAddr) -> SocketAddr {
    if upstream.is_ipv4() {
        SocketAddr::from(([0, 0, 0, 0], 0))
    } else {
        SocketAddr::from(([0u16; 8], 0))
    }
}

impl Relay {
    /// Binds the config's listening address (for the datagram transports, also resolves the
    /// upstream address, once). Nothing is accepted until [`Relay::run`].
    pub async fn bind(config: Config) -> io::Result<Relay> {
        let listen = config.listen;
        let in_context = |e: io::Error| io::Error::new(e.kind(), format!("{listen}: {e}"));
        let listener = match config.transport {
            Transport::Tcp(_) => {
                Listener::Stream(TcpListener::bind(listen).await.map_err(in_context)?)
            }
            #[cfg(feature = "websocket")]
            Transport::WebSocket => {
                Listener::Stream(TcpListener::bind(listen).await.map_err(in_context)?)
            }
            Transport::Udp => datagrams(&config).await?,
            #[cfg(feature = "enet")]
            Transport::Enet => datagrams(&config).await?,
        };
        let local = match &listener {
            Listener::Stream(listener) => listener.local_addr()?,
            Listener::Datagrams(socket, _) => socket.local_addr()?,
        };
        Ok(Relay { config, listener, local })
    }

    /// Where the relay listens.
    pub fn local_addr(&self) -> SocketAddr {
        self.local
    }

    /// The relay's settings.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// Serves clients until `stop` resolves: each client gets its own upstream connection,
    /// every message either way is checked (see [`Messages`](crate::Messages)), judged by
    /// `filter` and forwarded or dropped, and `observer` hears of it. When `stop` resolves, no
    /// client is accepted any more and every connection still open is closed and reported
    /// closed ([`End::Closed`](crate::End::Closed), detail "the relay stopped"). TCP and
    /// WebSocket: each stops reading, finishes the write it is in so that whatever it accepted
    /// reaches its peer whole, reports a frame cut short as dropped (`incomplete`), and closes;
    /// bytes it had not read are refused by the close (the peer sees a reset, not a clean end).
    /// `run` returns once they are closed, at most one idle timeout after the stop (a
    /// connection whose write has not finished by then ends as [`End::Idle`](crate::End::Idle),
    /// detail "the relay stopped; a write did not finish"). UDP sessions are
    /// forgotten; ENet peers are disconnected at once (packets not yet acknowledged are not
    /// sent again). Errors only if a transport
    /// cannot start (an ENet host), or `filter` reads messages of another kind than the config's
    /// ([`Filter::reads`]); each connection's errors end that connection alone.
    pub async fn run<F: Filter, O: Observer>(
        self,
        filter: F,
        observer: O,
        stop: impl Future,
    ) -> io::Result<()> {
        if let Some(reads) = filter.reads().filter(|&reads| reads != self.config.messages) {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!(
                    "the filter reads {} but the relay is configured for {}",
                    reads.name(),
                    self.config.messages.name()
                ),
            ));
        }
        let shared = Shared::new(self.config, filter, observer);
        match self.listener {
            Listener::Stream(listener) => match shared.config.transport {
                #[cfg(feature = "websocket")]
                Transport::WebSocket => {
                    crate::accept::serve::<crate::websocket::WebSocket, F, O>(
                        listener, shared, stop,
                    )
                    .await
                }
                _ => crate::accept::serve::<crate::tcp::Tcp, F, O>(listener, shared, stop).await,
            },
            Listener::Datagrams(socket, upstream) => match shared.config.transport {
                #[cfg(feature = "enet")]
                Transport::Enet => crate::enet::serve(socket, upstream, shared, stop).await,
                _ => crate::udp::serve(socket, upstream, shared, stop).await,
            },
        }
    }
}

/// The datagram transports' start (UDP, ENet): the listening socket and the upstream address,
/// resolved once.
async fn datagrams(config: &Config) -> io::Result<Listener> {
    let socket = UdpSocket::bind(config.listen)
        .await
        .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", config.listen)))?;
    let upstream = tokio::net::lookup_host(config.upstream.as_str())
        .await
        .ok()
        .and_then(|mut addrs| addrs.next())
        .ok_or_else(|| {
            io::Error::new(io::ErrorKind::NotFound, format!("cannot resolve {}", config.upstream))
        })?;
    Ok(Listener::Datagrams(Arc::new(socket), upstream))
}
