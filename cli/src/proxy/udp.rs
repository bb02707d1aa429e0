//! The UDP proxy: one value per datagram (`PacketPeerUDP`), no prefix. Each client address gets
//! its own upstream socket (a session), forgotten after the idle timeout.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::Arc;

use bytes::Bytes;
use gdvariant::net::Packet;
use tokio::net::UdpSocket;
use tokio::task::JoinHandle;
use tokio::time::timeout;

use super::activity::Activity;
use super::report::{Report, Tally};
use super::rules::{RateLimit, admit};
use super::settings::Settings;
use super::{Context, Direction, End, stop_signal};
use crate::failure::Failure;

/// Largest datagram read (the largest UDP payload, rounded up).
const DATAGRAM_ROOM: usize = 64 << 10;

/// A client address and its upstream socket.
struct Session {
    upstream: Arc<UdpSocket>,
    activity: Arc<Activity>,
    /// Bytes of the client's datagrams so far (offsets in the drop lines).
    offset: u64,
    rate: Option<RateLimit>,
    tally: Tally,
    /// Relays the upstream's replies; ends when the session is idle.
    replies: JoinHandle<()>,
}

/// Receives datagrams until a stop signal.
pub async fn serve(settings: Arc<Settings>, report: Arc<Report>) -> Result<(), Failure> {
    let (socket, upstream, addr) = super::bind_datagrams(&settings).await?;
    // Listen for a stop before saying where the proxy listens: a signal sent on that line is
    // then never missed.
    let stop = stop_signal();
    report.listening(addr, "udp");
    let mut sessions: HashMap<SocketAddr, Session> = HashMap::new();
    let mut buffer = vec![0u8; DATAGRAM_ROOM];
    tokio::pin!(stop);
    loop {
        let (len, peer) = tokio::select! {
            () = &mut stop => break,
            received = socket.recv_from(&mut buffer) => match received {
                Ok(received) => received,
                // An ICMP error from an earlier send, say: go on.
                Err(_) => continue,
            },
        };
        let datagram = Bytes::copy_from_slice(buffer.get(..len).unwrap_or(&[]));
        if sessions.get(&peer).is_some_and(|s| s.replies.is_finished()) {
            if let Some(mut old) = sessions.remove(&peer) {
                report.merge(&mut old.tally);
            }
            report.closed(peer, End::Idle, None);
        }
        if !sessions.contains_key(&peer) {
            sessions.retain(|_, s| !s.replies.is_finished());
            if sessions.len() >= settings.max_connections {
                report.refused(peer, false);
                continue;
            }
            let Ok(session) = open(&settings, &report, &socket, upstream, peer).await else {
                continue;
            };
            report.connection();
            sessions.insert(peer, session);
        }
        let Some(session) = sessions.get_mut(&peer) else { continue };
        let context =
            Context { settings: Arc::clone(&settings), report: Arc::clone(&report), peer };
        let offset = session.offset;
        session.offset = offset.saturating_add(u64::try_from(len).unwrap_or(u64::MAX));
        if let Some(packet) =
            check(&context, Direction::ToUpstream, datagram, offset, &mut session.rate)
        {
            session.activity.touch();
            session.tally.add(&packet);
            let _ = session.upstream.send(packet.raw_bytes()).await;
            report.merge(&mut session.tally);
        }
    }
    for (_, mut session) in sessions {
        report.merge(&mut session.tally);
        session.replies.abort();
    }
    Ok(())
}

/// A new session for `peer`: an upstream socket and the task relaying its replies.
async fn open(
    settings: &Arc<Settings>,
    report: &Arc<Report>,
    socket: &Arc<UdpSocket>,
    upstream: SocketAddr,
    peer: SocketAddr,
) -> std::io::Result<Session> {
    let local: SocketAddr = if upstream.is_ipv4() {
        SocketAddr::from(([0, 0, 0, 0], 0))
    } else {
        SocketAddr::from(([0u16; 8], 0))
    };
    let up = Arc::new(UdpSocket::bind(local).await?);
    up.connect(upstream).await?;
    let activity = Arc::new(Activity::new());
    let context = Context { settings: Arc::clone(settings), report: Arc::clone(report), peer };
    let replies =
        tokio::spawn(replies(context, Arc::clone(&up), Arc::clone(socket), Arc::clone(&activity)));
    Ok(Session {
        upstream: up,
        activity,
        offset: 0,
        rate: settings.rate_limit.map(RateLimit::new),
        tally: Tally::new(Direction::ToUpstream),
        replies,
    })
}

/// Relays the upstream's datagrams back to the client until the session is idle.
async fn replies(
    context: Context,
    upstream: Arc<UdpSocket>,
    socket: Arc<UdpSocket>,
    activity: Arc<Activity>,
) {
    let mut buffer = vec![0u8; DATAGRAM_ROOM];
    let mut offset = 0u64;
    let mut tally = Tally::new(Direction::ToClient);
    let mut no_rate = None;
    loop {
        let left = activity.left(context.settings.idle);
        let len = match timeout(left, upstream.recv(&mut buffer)).await {
            Err(_) => break,
            Ok(Err(_)) => continue,
            Ok(Ok(len)) => len,
        };
        let datagram = Bytes::copy_from_slice(buffer.get(..len).unwrap_or(&[]));
        let at = offset;
        offset = offset.saturating_add(u64::try_from(len).unwrap_or(u64::MAX));
        if let Some(packet) = check(&context, Direction::ToClient, datagram, at, &mut no_rate) {
            activity.touch();
            tally.add(&packet);
            let _ = socket.send_to(packet.raw_bytes(), context.peer).await;
            context.report.merge(&mut tally);
        }
    }
}

/// The datagram as a packet Godot accepts and the rules admit; anything else is reported.
pub(super) fn check(
    context: &Context,
    direction: Direction,
    datagram: Bytes,
    offset: u64,
    rate: &mut Option<RateLimit>,
) -> Option<Packet> {
    let len = u64::try_from(datagram.len()).unwrap_or(u64::MAX);
    if len > u64::from(context.settings.max_frame) {
        let detail =
            format!("datagram of {len} bytes over the limit of {}", context.settings.max_frame);
        context.dropped(direction, offset, len, "too_large", detail);
        return None;
    }
    match Packet::datagram_at(datagram, offset, context.settings.options) {
        Ok(packet) => admit(context, direction, &packet, rate).then_some(packet),
        Err(bad) => {
            context.report.bad_frame(context.peer, direction, &bad);
            None
        }
    }
}
