//! The WebSocket proxy: one value per message (`WebSocketPeer.put_var`), checked as a datagram
//! and forwarded as the same message to a WebSocket server upstream.

use futures_util::{SinkExt, StreamExt};
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::TcpStream;
use tokio::time::timeout;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

use super::accept::{Transport, both_ways};
use super::activity::Activity;
use super::multiplayer::{Filter, Verdict};
use super::report::Tally;
use super::udp::check;
use super::{Context, Direction, End};

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

impl Transport for WebSocket {
    const NAME: &'static str = "websocket";
    type Client = WebSocketStream<TcpStream>;
    type Upstream = WebSocketStream<MaybeTlsStream<TcpStream>>;
    type Error = tokio_tungstenite::tungstenite::Error;

    async fn handshake(
        client: TcpStream,
        context: &Context,
    ) -> Result<Self::Client, (End, String)> {
        let _ = client.set_nodelay(true);
        tokio_tungstenite::accept_async_with_config(client, Some(config(context)))
            .await
            .map_err(|e| (End::Error, format!("handshake: {e}")))
    }

    async fn connect(context: &Context) -> Result<Self::Upstream, Self::Error> {
        let url = upstream_url(&context.settings.upstream);
        let connect =
            tokio_tungstenite::connect_async_with_config(url.as_str(), Some(config(context)), true);
        Ok(connect.await?.0)
    }

    async fn relay(client: Self::Client, upstream: Self::Upstream, context: &Context) -> End {
        let activity = Activity::new();
        let filter =
            context.settings.multiplayer.then(|| std::sync::Mutex::new(Filter::new(context)));
        let filter = filter.as_ref();
        let (client_sink, client_stream) = client.split();
        let (upstream_sink, upstream_stream) = upstream.split();
        let up =
            pump(client_stream, upstream_sink, Direction::ToUpstream, context, &activity, filter);
        let down =
            pump(upstream_stream, client_sink, Direction::ToClient, context, &activity, filter);
        both_ways(up, down).await
    }
}

/// Messages and frames up to `--max-frame`.
fn config(context: &Context) -> WebSocketConfig {
    let max = usize::try_from(context.settings.max_frame).unwrap_or(usize::MAX);
    WebSocketConfig::default().max_message_size(Some(max)).max_frame_size(Some(max))
}

type Stream<S> = futures_util::stream::SplitStream<WebSocketStream<S>>;
type Sink<S> = futures_util::stream::SplitSink<WebSocketStream<S>, Message>;

/// One direction: each binary or text message is checked as one value (with `--multiplayer`,
/// judged by the connection's multiplayer filter) and forwarded as the same message; a close is
/// passed on; pings are answered by the library.
async fn pump<R, W>(
    mut src: Stream<R>,
    mut dst: Sink<W>,
    direction: Direction,
    context: &Context,
    activity: &Activity,
    filter: Option<&std::sync::Mutex<Filter>>,
) -> End
where
    R: AsyncRead + AsyncWrite + Unpin,
    W: AsyncRead + AsyncWrite + Unpin,
{
    let settings = &context.settings;
    let mut rate = context.rate_limit();
    let mut tally = Tally::new(direction);
    let mut offset = 0u64;
    loop {
        let message = match timeout(activity.left(settings.idle), src.next()).await {
            Err(_) => return End::Idle,
            Ok(None) => {
                let _ = dst.close().await;
                return End::Closed;
            }
            Ok(Some(Err(tokio_tungstenite::tungstenite::Error::Capacity(e)))) => {
                let detail = format!("message over the limit: {e}");
                context.dropped(direction, offset, 0, "too_large", detail);
                return End::Error;
            }
            Ok(Some(Err(_))) => return End::Error,
            Ok(Some(Ok(message))) => message,
        };
        let (data, text) = match message {
            Message::Binary(data) => (data, false),
            Message::Text(text) => (bytes::Bytes::from(text), true),
            Message::Close(frame) => {
                let _ = dst.send(Message::Close(frame)).await;
                return End::Closed;
            }
            Message::Ping(_) | Message::Pong(_) | Message::Frame(_) => continue,
        };
        let at = offset;
        offset = offset.saturating_add(u64::try_from(data.len()).unwrap_or(u64::MAX));
        if let Some(filter) = filter {
            let verdict = filter
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .judge(context, direction, &data);
            if let Verdict::Drop(reason, detail) = verdict {
                let len = u64::try_from(data.len()).unwrap_or(u64::MAX);
                if settings.monitor {
                    context.report.line(&serde_json::json!({
                        "event": "drop", "peer": context.peer.to_string(), "direction": direction.name(),
                        "offset": at, "len": len, "reason": reason, "detail": detail, "monitor": true,
                    }));
                } else {
                    context.dropped(direction, at, len, reason, detail);
                    if settings.disconnect {
                        return End::Refused;
                    }
                    continue;
                }
            }
            activity.touch();
            tally.add_bytes(data.len());
            let message = if text {
                match tokio_tungstenite::tungstenite::Utf8Bytes::try_from(data) {
                    Ok(text) => Message::Text(text),
                    Err(_) => return End::Error,
                }
            } else {
                Message::Binary(data)
            };
            let sent = timeout(settings.idle, dst.send(message)).await;
            context.report.merge(&mut tally);
            match sent {
                Err(_) => return End::Idle,
                Ok(Err(_)) => return End::Error,
                Ok(Ok(())) => continue,
            }
        }
        let Some(packet) = check(context, direction, data, at, &mut rate) else {
            if settings.disconnect {
                return End::Refused;
            }
            continue;
        };
        activity.touch();
        tally.add(&packet);
        let bytes = packet.into_bytes();
        let message = match text {
            false => Message::Binary(bytes),
            true => match tokio_tungstenite::tungstenite::Utf8Bytes::try_from(bytes) {
                Ok(text) => Message::Text(text),
                Err(_) => return End::Error,
            },
        };
        let sent = timeout(settings.idle, dst.send(message)).await;
        context.report.merge(&mut tally);
        match sent {
            Err(_) => return End::Idle,
            Ok(Err(_)) => return End::Error,
            Ok(Ok(())) => {}
        }
    }
}
