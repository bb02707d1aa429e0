//! The TCP proxy: length-prefixed frames (`StreamPeer.put_var`, `PacketPeerStream`), read with
//! [`FrameCodec`] and forwarded as the exact bytes received.

use std::io::IoSlice;
use std::sync::Arc;

use bytes::{Buf, Bytes, BytesMut};
use gdvariant::net::FrameCodec;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::tcp::{OwnedReadHalf, OwnedWriteHalf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Semaphore;
use tokio::time::timeout;
use tokio_util::codec::Decoder;

use super::activity::Activity;
use super::report::{Report, Tally};
use super::rules::admit;
use super::settings::Settings;
use super::{Context, Direction, End, stop_signal};
use crate::failure::Failure;

/// Room kept free in a receive buffer before each read.
const READ_ROOM: usize = 64 << 10;
/// Slices handed to one vectored write.
const MAX_SLICES: usize = 64;
/// Frames up to this size are copied into one output buffer (one write for many small frames);
/// larger ones are written from where they were received.
const COPY_BELOW: usize = 4 << 10;

/// Accepts connections until a stop signal; each gets an upstream connection and two pumps.
pub async fn serve(settings: Arc<Settings>, report: Arc<Report>) -> Result<(), Failure> {
    let listener = TcpListener::bind(settings.listen)
        .await
        .map_err(|e| Failure::Input(format!("cannot listen on {}: {e}", settings.listen)))?;
    let addr = listener.local_addr().map_err(|e| Failure::Input(e.to_string()))?;
    // Listen for a stop before saying where the proxy listens: a signal sent on that line is
    // then never missed.
    let stop = stop_signal();
    report.listening(addr, "tcp");
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
            let (end, detail) = connection(client, &context).await;
            context.report.closed(peer, end, detail);
            drop(slot);
        });
    }
}

/// Serves one client: connects upstream, then runs both directions until both end or one
/// must close the connection.
async fn connection(client: TcpStream, context: &Context) -> (End, Option<String>) {
    let settings = &context.settings;
    let upstream =
        match timeout(settings.idle, TcpStream::connect(settings.upstream.as_str())).await {
            Ok(Ok(upstream)) => upstream,
            Ok(Err(e)) => return (End::Error, Some(format!("cannot connect upstream: {e}"))),
            Err(_) => return (End::Idle, Some("connecting upstream timed out".into())),
        };
    let _ = client.set_nodelay(true);
    let _ = upstream.set_nodelay(true);
    let (client_read, client_write) = client.into_split();
    let (upstream_read, upstream_write) = upstream.into_split();
    let activity = Activity::new();
    let up = pump(client_read, upstream_write, Direction::ToUpstream, context, &activity);
    let down = pump(upstream_read, client_write, Direction::ToClient, context, &activity);
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

/// One direction: reads bytes, cuts them into frames, forwards the frames Godot accepts and
/// the rules admit (their exact bytes: small frames copied together, large ones from the
/// receive buffer, all with one vectored write per read), reports the rest.
async fn pump(
    mut src: OwnedReadHalf,
    mut dst: OwnedWriteHalf,
    direction: Direction,
    context: &Context,
    activity: &Activity,
) -> End {
    let settings = &context.settings;
    let mut codec = FrameCodec::new(settings.prefix, settings.options);
    let mut buffer = BytesMut::with_capacity(READ_ROOM);
    let mut out: Vec<Bytes> = Vec::new();
    let mut small = BytesMut::new();
    let mut tally = Tally::new(direction);
    let mut rate = context.rate_limit();
    loop {
        if buffer.capacity().saturating_sub(buffer.len()) < READ_ROOM / 4 {
            buffer.reserve(READ_ROOM);
        }
        let left = activity.left(settings.idle);
        let read = match timeout(left, src.read_buf(&mut buffer)).await {
            Err(_) => return End::Idle,
            Ok(Err(_)) => return End::Error,
            Ok(Ok(read)) => read,
        };
        let at_end = read == 0;
        loop {
            let item =
                if at_end { codec.decode_eof(&mut buffer) } else { codec.decode(&mut buffer) };
            match item {
                Ok(Some(Ok(packet))) => {
                    if admit(context, direction, &packet, &mut rate) {
                        tally.add(&packet);
                        if packet.len() < COPY_BELOW {
                            small.extend_from_slice(packet.raw_bytes());
                        } else {
                            if !small.is_empty() {
                                out.push(small.split().freeze());
                            }
                            out.push(packet.into_bytes());
                        }
                    } else if settings.disconnect {
                        return End::Refused;
                    }
                }
                Ok(Some(Err(bad))) => {
                    context.report.bad_frame(context.peer, direction, &bad);
                    if settings.disconnect {
                        return End::Refused;
                    }
                }
                Ok(None) => break,
                Err(_) => return End::Error,
            }
        }
        if !small.is_empty() {
            out.push(small.split().freeze());
        }
        if !out.is_empty() {
            activity.touch();
            let written = timeout(settings.idle, write_all(&mut dst, &mut out)).await;
            context.report.merge(&mut tally);
            match written {
                Err(_) => return End::Idle,
                Ok(Err(_)) => return End::Error,
                Ok(Ok(())) => {}
            }
        } else if activity.left(settings.idle).is_zero() {
            return End::Idle;
        }
        if at_end {
            let _ = dst.shutdown().await;
            return End::Closed;
        }
    }
}

/// Writes every buffer of `queue` in order, several per system call, and empties the queue.
async fn write_all(dst: &mut OwnedWriteHalf, queue: &mut Vec<Bytes>) -> std::io::Result<()> {
    let mut first = 0;
    while first < queue.len() {
        let mut written = {
            let mut slices = [IoSlice::new(&[]); MAX_SLICES];
            let mut count = 0usize;
            for (slot, bytes) in slices.iter_mut().zip(queue.iter().skip(first)) {
                *slot = IoSlice::new(bytes);
                count = count.saturating_add(1);
            }
            let slices = slices.get(..count).unwrap_or(&[]);
            let written = dst.write_vectored(slices).await?;
            if written == 0 {
                return Err(std::io::ErrorKind::WriteZero.into());
            }
            written
        };
        while written > 0 {
            let Some(front) = queue.get_mut(first) else { break };
            if written >= front.len() {
                written = written.saturating_sub(front.len());
                first = first.saturating_add(1);
            } else {
                front.advance(written);
                written = 0;
            }
        }
    }
    queue.clear();
    Ok(())
}
