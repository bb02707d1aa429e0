//! TCP: length-prefixed frames (`StreamPeer.put_var`, `PacketPeerStream`), read with
//! [`FrameCodec`] (each value validated once, as Godot's `get_var` reads it), judged by the
//! filter, and forwarded as the exact bytes received. Costs: O(bytes) per read plus the filter;
//! a frame over the size limit is discarded as it arrives, never buffered whole.

use std::io::IoSlice;

use bytes::{Buf, Bytes, BytesMut};
use gdvariant::net::FrameCodec;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::net::tcp::{OwnedReadHalf, OwnedWriteHalf};
use tokio::time::timeout;
use tokio_util::codec::Decoder;

use crate::config::Config;

use crate::accept::{Stream, both_ways};
use crate::activity::Activity;
use crate::filter::{Direction, Filter};
use crate::link::{Link, Message};
use crate::observer::{End, Observer, Tally};

/// Room kept free in a receive buffer before each read.
const READ_ROOM: usize = 64 << 10;
/// Slices handed to one vectored write.
const MAX_SLICES: usize = 64;
/// Frames up to this size are copied into one output buffer (one write for many small frames);
/// larger ones are written from where they were received.
const COPY_BELOW: usize = 4 << 10;

/// Length-prefixed frames over TCP.
pub struct Tcp;

impl Stream for Tcp {
    type Client = TcpStream;
    type Upstream = TcpStream;

    async fn handshake(client: TcpStream, _: &Config) -> Result<TcpStream, String> {
        let _ = client.set_nodelay(true);
        Ok(client)
    }

    async fn connect(config: &Config) -> Result<TcpStream, String> {
        let upstream =
            TcpStream::connect(config.upstream.as_str()).await.map_err(|e| e.to_string())?;
        let _ = upstream.set_nodelay(true);
        Ok(upstream)
    }

    async fn relay<F: Filter, O: Observer>(
        client: TcpStream,
        upstream: TcpStream,
        link: &Link<F, O>,
    ) -> End {
        let (client_read, client_write) = client.into_split();
        let (upstream_read, upstream_write) = upstream.into_split();
        let activity = Activity::new();
        let up = pump(client_read, upstream_write, Direction::ToUpstream, link, &activity);
        let down = pump(upstream_read, client_write, Direction::ToClient, link, &activity);
        both_ways(up, down).await
    }
}

/// One direction: reads bytes, cuts them into frames, forwards the frames Godot accepts and
/// the filter lets go (their exact bytes: small frames copied together, large ones from the
/// receive buffer, all with one vectored write per read), reports the rest.
async fn pump<F: Filter, O: Observer>(
    mut src: OwnedReadHalf,
    mut dst: OwnedWriteHalf,
    direction: Direction,
    link: &Link<F, O>,
    activity: &Activity,
) -> End {
    let settings = link.config();
    let mut codec = FrameCodec::new(settings.prefix(), settings.options);
    let mut buffer = BytesMut::with_capacity(READ_ROOM);
    let mut out: Vec<Bytes> = Vec::new();
    let mut small = BytesMut::new();
    let mut tally = Tally::new(direction);
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
        crate::work::count(1);
        {
            // Every frame of this read is judged under one lock of the filter's state.
            let mut state = link.state();
            loop {
                let item =
                    if at_end { codec.decode_eof(&mut buffer) } else { codec.decode(&mut buffer) };
                crate::work::count(1);
                match item {
                    Ok(Some(Ok(packet))) => {
                        let message = Message {
                            direction,
                            offset: packet.offset(),
                            bytes: packet.payload(),
                            len: packet.len(),
                            channel: None,
                        };
                        if link.pass_with(&mut state, &message, Some(&packet)) {
                            tally.add(&packet);
                            if packet.len() < COPY_BELOW {
                                small.extend_from_slice(packet.raw_bytes());
                            } else {
                                if !small.is_empty() {
                                    out.push(small.split().freeze());
                                }
                                out.push(packet.into_bytes());
                            }
                        } else if settings.close_on_drop {
                            return End::Refused;
                        }
                    }
                    Ok(Some(Err(bad))) => {
                        link.bad_frame(direction, &bad);
                        if settings.close_on_drop {
                            return End::Refused;
                        }
                    }
                    Ok(None) => break,
                    Err(_) => return End::Error,
                }
            }
        }
        if !small.is_empty() {
            out.push(small.split().freeze());
        }
        if !out.is_empty() {
            activity.touch();
            let written = timeout(settings.idle, write_all(&mut dst, &mut out)).await;
            link.merge(&mut tally);
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
