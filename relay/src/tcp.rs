//! TCP: length-prefixed frames (`StreamPeer.put_var`, `PacketPeerStream`). Each read is
//! scanned in place ([`framing::receive`]: every value validated once, as Godot's `get_var`
//! reads it), each complete frame judged by the filter, and the accepted frames are written from
//! the receive buffer as they came, one vectored write per read (a read whose frames all pass is
//! one slice). Nothing is allocated per frame. Costs: O(bytes) per read plus the filter; a frame
//! over the size limit is discarded as it arrives, never buffered whole, so the buffer holds at
//! most one frame of at most the limit plus one read.

use std::io::IoSlice;

use bytes::{Buf, BytesMut};
use gdvariant::framing::{self, FrameError, FrameErrorKind, Received};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::net::tcp::{OwnedReadHalf, OwnedWriteHalf};
use tokio::time::timeout;

use crate::accept::{Stream, both_ways};
use crate::activity::Activity;
use crate::config::Config;
use crate::detail::Detail;
use crate::filter::{Direction, Filter};
use crate::link::{Link, Message};
use crate::observer::{End, Observer, Tally};

/// Room kept free in a receive buffer before each read.
const READ_ROOM: usize = 64 << 10;
/// Slices handed to one vectored write.
const MAX_SLICES: usize = 64;
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
        let up = pump(client_read, upstream_write, Direction::ToServer, link, &activity);
        let down = pump(upstream_read, client_write, Direction::ToClient, link, &activity);
        both_ways(up, down).await
    }
}

/// Where one direction's stream stands: the stream offset of the first byte not scanned yet,
/// and the bytes of a refused frame still to discard as they arrive.
#[derive(Debug, Default)]
struct Position {
    offset: u64,
    discard: u64,
}

impl Position {
    /// Moves past `n` bytes.
    fn advance(&mut self, n: usize) {
        self.offset = self.offset.saturating_add(u64::try_from(n).unwrap_or(u64::MAX));
    }
}

/// What scanning one read's bytes gave.
enum Scanned {
    /// Bytes of the buffer scanned (to drop once the accepted ones are written).
    Read(usize),
    /// A frame was dropped with `close_on_drop`.
    Refused,
}

/// One direction: reads bytes, scans the frames they complete, and forwards the frames Godot
/// accepts and the filter lets go (their exact bytes, from the receive buffer), reporting the
/// rest.
async fn pump<F: Filter, O: Observer>(
    mut src: OwnedReadHalf,
    mut dst: OwnedWriteHalf,
    direction: Direction,
    link: &Link<F, O>,
    activity: &Activity,
) -> End {
    let settings = link.config();
    let mut buffer = BytesMut::with_capacity(READ_ROOM);
    let mut runs: Vec<(usize, usize)> = Vec::new();
    let mut tally = Tally::new(direction);
    let mut position = Position::default();
    loop {
        if buffer.capacity().saturating_sub(buffer.len()) < READ_ROOM / 4 {
            // Ask for what brings the buffer back to READ_ROOM, not READ_ROOM more: `BytesMut`
            // reuses the consumed front only when the request fits in the whole allocation, so
            // asking for READ_ROOM with a cut frame pending doubled it (each direction settled
            // at 128 KiB). A frame larger than READ_ROOM still grows it, up to `max_frame`.
            buffer.reserve(READ_ROOM.saturating_sub(buffer.len()).max(READ_ROOM / 4));
        }
        let left = activity.left(settings.idle);
        let read = tokio::select! {
            // The relay stops: read no more, as at the end of the stream (a frame cut short in
            // the buffer is reported, the accepted ones were written), and close this side.
            // What the peer sent and was not read is refused by the close (a reset).
            _ = link.shared.stopping.cancelled() => 0,
            read = timeout(left, src.read_buf(&mut buffer)) => match read {
                Err(_) => return End::Idle,
                Ok(Err(_)) => return End::Error,
                Ok(Ok(read)) => read,
            },
        };
        let at_end = read == 0;
        crate::work::count(1);
        let scanned = scan(&buffer, at_end, direction, link, &mut position, &mut runs, &mut tally);
        let Scanned::Read(consumed) = scanned else { return End::CloseOnDrop };
        if !runs.is_empty() {
            activity.touch();
            let written = timeout(settings.idle, write_runs(&mut dst, &buffer, &runs)).await;
            link.merge(&mut tally);
            runs.clear();
            match written {
                Err(_) => return End::Idle,
                Ok(Err(_)) => return End::Error,
                Ok(Ok(())) => {}
            }
        } else if activity.left(settings.idle).is_zero() {
            return End::Idle;
        }
        buffer.advance(consumed.min(buffer.len()));
        if at_end {
            let _ = dst.shutdown().await;
            return End::Closed;
        }
    }
}

/// Scans the complete frames at the front of `buffer` (all of it at the end of the stream,
/// where a cut frame is reported): each good frame is judged, accepted ones are added to `runs`
/// (ranges of `buffer`, adjacent ones merged), refused ones reported. The filter's state is
/// locked once for the whole read.
fn scan<F: Filter, O: Observer>(
    buffer: &[u8],
    at_end: bool,
    direction: Direction,
    link: &Link<F, O>,
    position: &mut Position,
    runs: &mut Vec<(usize, usize)>,
    tally: &mut Tally,
) -> Scanned {
    let settings = link.config();
    let (prefix, options) = (settings.prefix(), settings.options);
    let mut state = link.state();
    let mut at = 0usize;
    loop {
        if position.discard > 0 {
            let here = buffer.len().saturating_sub(at);
            let n = usize::try_from(position.discard).unwrap_or(usize::MAX).min(here);
            at = at.saturating_add(n);
            position.advance(n);
            position.discard =
                position.discard.saturating_sub(u64::try_from(n).unwrap_or(u64::MAX));
            if position.discard > 0 {
                return Scanned::Read(at);
            }
        }
        let rest = buffer.get(at..).unwrap_or(&[]);
        if rest.is_empty() {
            return Scanned::Read(at);
        }
        crate::work::count(1);
        let offset = position.offset;
        match framing::receive(rest, offset, prefix, options) {
            Received::Incomplete { needed } => {
                if at_end {
                    let error = FrameError::new(offset, FrameErrorKind::Incomplete { needed });
                    let message = Message::whole(direction, offset, rest, None);
                    link.dropped(&message, "incomplete", Detail::new(error).as_str(), false);
                    position.advance(rest.len());
                    return Scanned::Read(buffer.len());
                }
                return Scanned::Read(at);
            }
            Received::Frame(frame) => {
                let len = frame.len();
                let message =
                    Message { direction, offset, bytes: frame.payload(), len, channel: None };
                if link.pass_with(&mut state, &message, Some(frame.element())) {
                    tally.add(len, frame.variant_type());
                    let end = at.saturating_add(len);
                    match runs.last_mut() {
                        Some(run) if run.1 == at => run.1 = end,
                        _ => runs.push((at, end)),
                    }
                } else if settings.close_on_drop {
                    return Scanned::Refused;
                }
                at = at.saturating_add(len);
                position.advance(len);
            }
            Received::Bad { error, len } => {
                let reason = error.reason();
                // Written inline: a flood of bad frames allocates nothing.
                let detail = Detail::new(error);
                match usize::try_from(len) {
                    Ok(whole) if whole <= rest.len() => {
                        let bytes = rest.get(..whole).unwrap_or(rest);
                        link.dropped(
                            &Message::whole(direction, offset, bytes, None),
                            reason,
                            detail.as_str(),
                            false,
                        );
                        at = at.saturating_add(whole);
                        position.advance(whole);
                    }
                    _ => {
                        // Over the size limit: skip what is here, discard the rest as it comes.
                        let message = Message {
                            direction,
                            offset,
                            bytes: &[],
                            len: usize::try_from(len).unwrap_or(usize::MAX),
                            channel: None,
                        };
                        link.dropped(&message, reason, detail.as_str(), false);
                        at = buffer.len();
                        position.advance(rest.len());
                        position.discard =
                            len.saturating_sub(u64::try_from(rest.len()).unwrap_or(u64::MAX));
                    }
                }
                if settings.close_on_drop {
                    return Scanned::Refused;
                }
            }
        }
    }
}

/// Writes the `runs` of `buffer` in order, several per system call.
async fn write_runs(
    dst: &mut OwnedWriteHalf,
    buffer: &[u8],
    runs: &[(usize, usize)],
) -> std::io::Result<()> {
    let mut first = 0usize;
    let mut skip = 0usize; // bytes of runs[first] already written
    while first < runs.len() {
        let mut written = {
            let mut io = [IoSlice::new(&[]); MAX_SLICES];
            let mut count = 0usize;
            for (slot, (i, &(start, end))) in io.iter_mut().zip(runs.iter().enumerate().skip(first))
            {
                let start = if i == first { start.saturating_add(skip) } else { start };
                *slot = IoSlice::new(buffer.get(start..end).unwrap_or(&[]));
                count = count.saturating_add(1);
            }
            let io = io.get(..count).unwrap_or(&[]);
            let written = dst.write_vectored(io).await?;
            if written == 0 {
                return Err(std::io::ErrorKind::WriteZero.into());
            }
            written
        };
        while written > 0 {
            let Some(&(start, end)) = runs.get(first) else { break };
            let left = end.saturating_sub(start).saturating_sub(skip);
            if written >= left {
                written = written.saturating_sub(left);
                first = first.saturating_add(1);
                skip = 0;
            } else {
                skip = skip.saturating_add(written);
                written = 0;
            }
        }
    }
    Ok(())
}
