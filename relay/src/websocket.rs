//! WebSocket: one message per WebSocket message (`WebSocketPeer.put_var`, or a multiplayer
//! packet), checked as a datagram (a value) or handed to the filter as it is (multiplayer), and
//! forwarded as the same message to a WebSocket server upstream. Messages and frames over the
//! size limit are refused by the WebSocket library before they are buffered whole. Costs:
//! O(message) plus the filter.

use futures_util::{SinkExt, StreamExt};
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::TcpStream;
use tokio::time::timeout;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

use crate::accept::{Stream as Accepted, both_ways};
use crate::activity::Activity;
use crate::config::{Config, Messages};
use crate::detail::Detail;
use crate::filter::{Direction, Filter};
use crate::link::{Link, Message as Received};
use crate::observer::{End, Observer, Tally};

/// The upstream URL: `ws://ADDR/` unless a URL was given.
fn upstream_url(upstream: &str) -> String {
    if upstream.starts_with("ws://") || upstream.starts_with("wss://") {
        upstream.to_string()
    } else {
        format!("ws://{upstream}/")
    }
}

/// One value per message over WebSocket.
pub struct WebSocket;

impl Accepted for WebSocket {
    type Client = WebSocketStream<TcpStream>;
    type Upstream = WebSocketStream<MaybeTlsStream<TcpStream>>;

    async fn handshake(client: TcpStream, config: &Config) -> Result<Self::Client, String> {
        let _ = client.set_nodelay(true);
        tokio_tungstenite::accept_async_with_config(client, Some(limits(config)))
            .await
            .map_err(|e| format!("handshake: {e}"))
    }

    async fn connect(config: &Config) -> Result<Self::Upstream, String> {
        let url = upstream_url(&config.upstream);
        let connect =
            tokio_tungstenite::connect_async_with_config(url.as_str(), Some(limits(config)), true);
        Ok(connect.await.map_err(|e| e.to_string())?.0)
    }

    async fn relay<F: Filter, O: Observer>(
        client: Self::Client,
        upstream: Self::Upstream,
        link: &Link<F, O>,
    ) -> End {
        let activity = Activity::new();
        let (client_sink, client_stream) = client.split();
        let (upstream_sink, upstream_stream) = upstream.split();
        let up = pump(client_stream, upstream_sink, Direction::ToServer, link, &activity);
        let down = pump(upstream_stream, client_sink, Direction::ToClient, link, &activity);
        both_ways(up, down).await
    }
}

/// Messages and frames up to the size limit.
fn limits(config: &Config) -> WebSocketConfig {
    let max = usize::try_from(config.max_frame).unwrap_or(usize::MAX);
    WebSocketConfig::default().max_message_size(Some(max)).max_frame_size(Some(max))
}

type Stream<S> = futures_util::stream::SplitStream<WebSocketStream<S>>;
type Sink<S> = futures_util::stream::SplitSink<WebSocketStream<S>, Message>;

/// One direction: each binary or text message is checked as one value (multiplayer: handed to
/// the filter as it is) and forwarded as the same message; a close is passed on; pings are
/// answered by the library.
async fn pump<R, W, F: Filter, O: Observer>(
    mut src: Stream<R>,
    mut dst: Sink<W>,
    direction: Direction,
    link: &Link<F, O>,
    activity: &Activity,
) -> End
where
    R: AsyncRead + AsyncWrite + Unpin,
    W: AsyncRead + AsyncWrite + Unpin,
{
    let config = link.config();
    let mut tally = Tally::new(direction);
    let mut offset = 0u64;
    loop {
        let next = tokio::select! {
            // The relay stops: read no more and close this side (the message being sent was
            // sent whole).
            _ = link.shared.stopping.cancelled() => Ok(None),
            next = timeout(activity.left(config.idle), src.next()) => next,
        };
        crate::work::count(1);
        let message = match next {
            Err(_) => return End::Idle,
            Ok(None) => {
                // Bounded like every write: a peer that does not read cannot hold the close.
                let _ = timeout(config.idle, dst.close()).await;
                return End::Closed;
            }
            Ok(Some(Err(tokio_tungstenite::tungstenite::Error::Capacity(e)))) => {
                let detail = Detail::new(format_args!("message over the limit: {e}"));
                link.dropped(
                    &Received::whole(direction, offset, &[], None),
                    "too_large",
                    detail.as_str(),
                    false,
                );
                return End::Error;
            }
            Ok(Some(Err(_))) => return End::Error,
            Ok(Some(Ok(message))) => message,
        };
        let (data, text) = match message {
            Message::Binary(data) => (data, false),
            Message::Text(text) => (bytes::Bytes::from(text), true),
            Message::Close(frame) => {
                let _ = timeout(config.idle, dst.send(Message::Close(frame))).await;
                return End::Closed;
            }
            Message::Ping(_) | Message::Pong(_) | Message::Frame(_) => continue,
        };
        let at = offset;
        offset = offset.saturating_add(u64::try_from(data.len()).unwrap_or(u64::MAX));
        let passed = match config.messages {
            Messages::Multiplayer => {
                let passes = link.pass(&Received::whole(direction, at, &data, None), None);
                if passes {
                    tally.add_bytes(data.len());
                }
                passes.then_some(data)
            }
            Messages::Values => link.check_value(direction, &data, at, None).map(|ty| {
                tally.add(data.len(), ty);
                data
            }),
        };
        let Some(bytes) = passed else {
            if config.close_on_drop {
                return End::CloseOnDrop;
            }
            continue;
        };
        activity.touch();
        let message = match text {
            false => Message::Binary(bytes),
            true => match tokio_tungstenite::tungstenite::Utf8Bytes::try_from(bytes) {
                Ok(text) => Message::Text(text),
                Err(_) => return End::Error,
            },
        };
        let sent = timeout(config.idle, dst.send(message)).await;
        link.merge(&mut tally);
        match sent {
            Err(_) => return End::Idle,
            Ok(Err(_)) => return End::Error,
            Ok(Ok(())) => {}
        }
    }
}
