//! UDP: one value per datagram (`PacketPeerUDP`), no prefix. Each client address gets its own
//! upstream socket (a session), forgotten after the idle timeout. Costs: O(datagram) plus the
//! filter per datagram, whoever sends it: a session that ends says so on a channel, so finding
//! the ended ones is O(1) per ended session, never a sweep per new client.

use std::collections::HashMap;
use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::sync::Arc;

use tokio::net::UdpSocket;
use tokio::sync::mpsc;
use tokio::task::JoinHandle;
use tokio::time::timeout;

use crate::activity::Activity;
use crate::filter::{Direction, Filter};
use crate::link::{Link, Shared};
use crate::observer::{End, Observer, Tally};

/// Largest datagram read (the largest UDP payload, rounded up).
const DATAGRAM_ROOM: usize = 64 << 10;

/// A client address and its upstream socket.
struct Session<F: Filter, O: Observer> {
    link: Arc<Link<F, O>>,
    upstream: Arc<UdpSocket>,
    activity: Arc<Activity>,
    /// Bytes of the client's datagrams so far (offsets in the drop reports).
    offset: u64,
    tally: Tally,
    /// Relays the upstream's replies; ends when the session is idle.
    replies: JoinHandle<()>,
}

impl<F: Filter, O: Observer> Session<F, O> {
    /// Reports what the session forwarded and how it ended, and stops its replies.
    fn end(mut self, end: End, detail: Option<&str>) {
        self.link.merge(&mut self.tally);
        self.replies.abort();
        self.link.closed(end, detail);
    }
}

/// Receives datagrams until `stop` resolves.
pub(crate) async fn serve<F: Filter, O: Observer>(
    socket: Arc<UdpSocket>,
    upstream: SocketAddr,
    shared: Arc<Shared<F, O>>,
    stop: impl Future,
) -> io::Result<()> {
    let mut sessions: HashMap<SocketAddr, Session<F, O>> = HashMap::new();
    let mut buffer = vec![0u8; DATAGRAM_ROOM];
    // Each session's replies task sends its address and number when it ends (idle). At most
    // one message per session, taken as it comes (and drained before each datagram is handled):
    // the channel holds at most `max_connections` of them.
    let (ended, mut endings) = mpsc::unbounded_channel::<(SocketAddr, u64)>();
    tokio::pin!(stop);
    loop {
        let (len, peer) = tokio::select! {
            _ = &mut stop => break,
            // An idle session ends (its upstream socket closed, its end reported) when it goes
            // idle, not when the next datagram happens to arrive: after the last client left,
            // none may.
            Some((addr, number)) = endings.recv() => {
                end_session(&mut sessions, addr, number);
                continue;
            }
            received = socket.recv_from(&mut buffer) => match received {
                Ok(received) => received,
                // An ICMP error from an earlier send, say: go on.
                Err(_) => continue,
            },
        };
        crate::work::count(1);
        let datagram = buffer.get(..len).unwrap_or(&[]);
        while let Ok((addr, number)) = endings.try_recv() {
            end_session(&mut sessions, addr, number);
        }
        if !sessions.contains_key(&peer) {
            if sessions.len() >= shared.config.max_connections {
                shared.observer.refused(peer);
                continue;
            }
            let Ok(session) = open(&shared, &socket, upstream, peer, ended.clone()).await else {
                continue;
            };
            sessions.insert(peer, session);
        }
        let Some(session) = sessions.get_mut(&peer) else { continue };
        let offset = session.offset;
        session.offset = offset.saturating_add(u64::try_from(len).unwrap_or(u64::MAX));
        let checked = session.link.check_value(Direction::ToServer, datagram, offset, None);
        if let Some(ty) = checked {
            session.activity.touch();
            session.tally.add(datagram.len(), ty);
            let _ = session.upstream.send(datagram).await;
            session.link.merge(&mut session.tally);
        }
    }
    for (_, session) in sessions.drain() {
        session.end(End::Closed, Some(crate::link::STOPPED));
    }
    Ok(())
}

/// Ends the session of `addr` if it is still the one numbered `number` (its replies task
/// ended, idle). O(1).
fn end_session<F: Filter, O: Observer>(
    sessions: &mut HashMap<SocketAddr, Session<F, O>>,
    addr: SocketAddr,
    number: u64,
) {
    crate::work::count(1);
    if sessions.get(&addr).is_some_and(|s| s.link.connection.number == number) {
        if let Some(old) = sessions.remove(&addr) {
            old.end(End::Idle, None);
        }
    }
}

/// A new session for `peer`: an upstream socket and the task relaying its replies.
async fn open<F: Filter, O: Observer>(
    shared: &Arc<Shared<F, O>>,
    socket: &Arc<UdpSocket>,
    upstream: SocketAddr,
    peer: SocketAddr,
    ended: mpsc::UnboundedSender<(SocketAddr, u64)>,
) -> io::Result<Session<F, O>> {
    let up = Arc::new(UdpSocket::bind(crate::relay::any_port(upstream)).await?);
    up.connect(upstream).await?;
    let activity = Arc::new(Activity::new());
    let link = Arc::new(shared.open(peer, None));
    let replies = tokio::spawn({
        let link = Arc::clone(&link);
        let (up, socket, activity) = (Arc::clone(&up), Arc::clone(socket), Arc::clone(&activity));
        async move {
            let number = link.connection.number;
            replies(link, up, socket, activity).await;
            let _ = ended.send((peer, number));
        }
    });
    Ok(Session {
        link,
        upstream: up,
        activity,
        offset: 0,
        tally: Tally::new(Direction::ToServer),
        replies,
    })
}

/// Relays the upstream's datagrams back to the client until the session is idle.
async fn replies<F: Filter, O: Observer>(
    link: Arc<Link<F, O>>,
    upstream: Arc<UdpSocket>,
    socket: Arc<UdpSocket>,
    activity: Arc<Activity>,
) {
    let mut buffer = vec![0u8; DATAGRAM_ROOM];
    let mut offset = 0u64;
    let mut tally = Tally::new(Direction::ToClient);
    let idle = link.config().idle;
    loop {
        let left = activity.left(idle);
        let len = match timeout(left, upstream.recv(&mut buffer)).await {
            Err(_) => break,
            Ok(Err(_)) => continue,
            Ok(Ok(len)) => len,
        };
        crate::work::count(1);
        let datagram = buffer.get(..len).unwrap_or(&[]);
        let at = offset;
        offset = offset.saturating_add(u64::try_from(len).unwrap_or(u64::MAX));
        if let Some(ty) = link.check_value(Direction::ToClient, datagram, at, None) {
            activity.touch();
            tally.add(datagram.len(), ty);
            let _ = socket.send_to(datagram, link.connection.peer).await;
            link.merge(&mut tally);
        }
    }
}
