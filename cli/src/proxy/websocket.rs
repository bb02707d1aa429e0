//! The WebSocket proxy: one value per message (`WebSocketPeer.put_var`), checked as a datagram
//! and forwarded as the same message to a WebSocket server upstream.

use std::sync::Arc;

use futures_util::{SinkExt, StreamExt};
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Semaphore;
use tokio::time::timeout;
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;

use super::activity::Activity;
use super::multiplayer::{Filter, Verdict};
use super::report::{Report, Tally};
use super::settings::Settings;
use super::udp::check;
use super::{Context, Direction, End, stop_signal};
use crate::failure::Failure;

/// Accepts WebSocket clients until a stop signal.
pub async fn serve(settings: Arc<Settings>, report: Arc<Report>) -> Result<(), Failure> {
    let listener = TcpListener::bind(settings.listen)
        .await
        .map_err(|e| Failure::Input(format!("cannot listen on {}: {e}", settings.listen)))?;
    let addr = listener.local_addr().map_err(|e| Failure::Input(e.to_string()))?;
    // Listen for a stop before saying where the proxy listens: a signal sent on that line is
    // then never missed.
    let stop = stop_signal();
    report.listening(addr, "websocket");
    let slots = Arc::new(Semaphore::new(settings.max_connections));
    tokio::pin!(stop);
    loop {
        let (client, peer) = tokio::select! {
            () = &mut stop => return Ok(()),
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
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
            let (end, detail) = connection(client, &context).await;
            context.report.closed(peer, end, detail);
            drop(slot);
        });
    }
}

/// The upstream URL: `ws://ADDR/` unless a URL was given.
fn upstream_url(upstream: &str) -> String {
    if upstream.starts_with("ws://") || upstream.starts_with("wss://") {
        upstream.to_string()
    } else {
        format!("ws://{upstream}/")
    }
}

/// Serves one client: the handshake, the upstream connection, then both directions.
async fn connection(client: TcpStream, context: &Context) -> (End, Option<String>) {
    let settings = &context.settings;
    let max = usize::try_from(settings.max_frame).unwrap_or(usize::MAX);
    let config = WebSocketConfig::default().max_message_size(Some(max)).max_frame_size(Some(max));
    let _ = client.set_nodelay(true);
    let client = match timeout(
        settings.idle,
        tokio_tungstenite::accept_async_with_config(client, Some(config)),
    )
    .await
    {
        Ok(Ok(client)) => client,
        Ok(Err(e)) => return (End::Error, Some(format!("handshake: {e}"))),
        Err(_) => return (End::Idle, Some("handshake timed out".into())),
    };
    let url = upstream_url(&settings.upstream);
    let connect = tokio_tungstenite::connect_async_with_config(url.as_str(), Some(config), true);
    let upstream = match timeout(settings.idle, connect).await {
        Ok(Ok((upstream, _))) => upstream,
        Ok(Err(e)) => return (End::Error, Some(format!("cannot connect upstream: {e}"))),
        Err(_) => return (End::Idle, Some("connecting upstream timed out".into())),
    };
    let activity = Activity::new();
    let filter = settings.multiplayer.then(|| std::sync::Mutex::new(Filter::new(context)));
    let filter = filter.as_ref();
    let (client_sink, client_stream) = client.split();
    let (upstream_sink, upstream_stream) = upstream.split();
    let up = pump(client_stream, upstream_sink, Direction::ToUpstream, context, &activity, filter);
    let down = pump(upstream_stream, client_sink, Direction::ToClient, context, &activity, filter);
    tokio::pin!(up, down);
    let (mut up_done, mut down_done) = (false, false);
    while !(up_done && down_done) {
        let end = tokio::select! {
            end = &mut up, if !up_done => { up_done = true; end }
            end = &mut down, if !down_done => { down_done = true; end }
        };
        if end.closes_all() {
            return (end, None);
        }
    }
    (End::Closed, None)
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
