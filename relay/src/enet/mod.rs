//! ENet: Godot 3's `NetworkedMultiplayerENet` and Godot 4's `ENetMultiplayerPeer`.
//!
//! ENet is terminated on both sides: the relay is the ENet server of every client, and for each
//! client it opens its own ENet client connection (its own UDP socket) to the upstream server,
//! with the client's connect data (Godot's peer id, which the server adopts and checks every
//! packet's header against) and channel count. Each packet that passes is sent on the same
//! channel as the same ENet packet, so with the same reliable / unreliable / unsequenced flags;
//! order holds per channel and per leg, and each leg recovers its own losses, so dropping a
//! reliable packet is just not forwarding it. A disconnect on one leg is passed to the other.
//!
//! What a packet is: Godot 3 puts an 8-byte header (source id, target) before every packet on
//! channels 1 and up, and its server sends system messages (a peer joined or left) on channel 0
//! (`gdvariant_multiplayer::transport::enet3`); Godot 4 adds nothing. Reading values
//! ([`Messages::Values`](crate::Messages::Values)) a packet carries one value
//! (`PacketPeer.put_var`), checked as the game's `get_var` reads it, then judged by the filter;
//! reading multiplayer packets, the filter gets each packet that passed Godot 3's header checks.
//!
//! One task owns every ENet host, driven sans-IO (`rusty_enet::ReadWrite`): a reader task per
//! UDP socket hands datagrams over a bounded channel, the owner feeds them to their host,
//! services the hosts (a 5 ms tick drives ENet's timers), forwards the events, and sends what
//! the hosts wrote. Bounds: [`Config::max_connections`] peers (ENet ignores connection attempts
//! over it), packets up to [`Config::max_frame`] (+ 8 header bytes) whole, and per peer at most
//! that much data
//! waiting in reassembly (ENet's `maximum_waiting_data`), so a fragment flood is bounded; at most
//! [`PENDING`] packets wait for an upstream connection.
//!
//! Files: this one holds [`serve`] (the owner task's loop), the making of hosts and the reader
//! tasks; `hosts.rs` the owner's bookkeeping of hosts, peers and legs (feeding, servicing,
//! connecting, timing out, forgetting); `leg.rs` one client's connection and the judging of its
//! packets; `packets.rs` the packet checks of Godot 3's transport and the flags the capture
//! needs.

use std::collections::HashMap;
use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use rusty_enet::{Host, HostSettings, MTU_MAX, ReadWrite};
use tokio::net::UdpSocket;
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

use crate::config::Config;
use crate::filter::Filter;
use crate::link::Shared;
use crate::observer::Observer;

mod hosts;
mod leg;
mod packets;

use hosts::Proxy;

/// An ENet host fed and drained by the owner task.
type EnetHost = Host<ReadWrite<SocketAddr, io::Error>>;

/// How often ENet's timers run (retransmissions, pings, timeouts).
const TICK: Duration = Duration::from_millis(5);
/// Datagrams on their way from the reader tasks to the owner (readers wait when it is full).
const INBOX: usize = 1024;
/// Datagrams the owner takes from the inbox before servicing the hosts.
const BATCH: usize = 64;
/// Packets a client may send before its upstream connection is made (more close it).
const PENDING: usize = 256;
/// How long a closing connection waits for its peers to acknowledge the disconnect.
const CLOSING: Duration = Duration::from_secs(3);
/// Channels a peer may ask for (ENet's maximum).
const MAX_CHANNELS: usize = 255;
/// Godot 3's ENet header: source id, target.
const HEADER: usize = 8;

/// Which socket a datagram came in on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Side {
    /// The listening socket (the clients).
    Down,
    /// The upstream socket of leg `n`.
    Leg(u64),
}

/// A datagram from a reader task.
type Datagram = (Side, SocketAddr, Vec<u8>);

/// A host's settings: `peers` peers of up to `channels` channels, packets up to the frame limit
/// plus the header, at most that much data per peer waiting in reassembly.
fn new_host(config: &Config, peers: usize, channels: usize) -> io::Result<EnetHost> {
    let host_settings = HostSettings {
        peer_limit: peers.max(1),
        channel_limit: channels.clamp(1, MAX_CHANNELS),
        ..HostSettings::default()
    };
    let mut host = Host::new(ReadWrite::new(), host_settings)
        .map_err(|e| io::Error::other(format!("cannot create an ENet host: {e:?}")))?;
    let packet = usize::try_from(config.max_frame).unwrap_or(usize::MAX).saturating_add(HEADER);
    host.set_maximum_packet_size(packet).map_err(|e| io::Error::other(format!("{e:?}")))?;
    host.set_maximum_waiting_data(packet).map_err(|e| io::Error::other(format!("{e:?}")))?;
    Ok(host)
}

/// Reads `socket`'s datagrams into the inbox, marked `side`, until the owner is gone. A datagram
/// larger than any ENet datagram is skipped.
fn read_into(socket: Arc<UdpSocket>, side: Side, inbox: mpsc::Sender<Datagram>) -> JoinHandle<()> {
    tokio::spawn(async move {
        let mut buffer = vec![0u8; MTU_MAX.saturating_add(1)];
        loop {
            let (len, from) = match socket.recv_from(&mut buffer).await {
                Ok(received) => received,
                // An ICMP error from an earlier send, say: go on.
                Err(_) => {
                    tokio::time::sleep(Duration::from_millis(1)).await;
                    continue;
                }
            };
            if len > MTU_MAX {
                continue;
            }
            let datagram = buffer.get(..len).unwrap_or(&[]).to_vec();
            if inbox.send((side, from, datagram)).await.is_err() {
                return;
            }
        }
    })
}

/// Serves ENet clients until `stop` resolves.
pub(crate) async fn serve<F: Filter, O: Observer>(
    socket: Arc<UdpSocket>,
    upstream: SocketAddr,
    shared: Arc<Shared<F, O>>,
    stop: impl Future,
) -> io::Result<()> {
    let down = new_host(&shared.config, shared.config.max_connections, MAX_CHANNELS)?;
    let (inbox, mut datagrams) = mpsc::channel(INBOX);
    let reader = read_into(Arc::clone(&socket), Side::Down, inbox.clone());
    let mut proxy = Proxy {
        shared,
        down,
        socket,
        upstream,
        legs: HashMap::new(),
        by_client: HashMap::new(),
        next: 0,
        inbox,
    };
    let mut tick = tokio::time::interval(TICK);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
    tokio::pin!(stop);
    loop {
        tokio::select! {
            _ = &mut stop => break,
            Some(datagram) = datagrams.recv() => {
                proxy.feed(datagram);
                for _ in 1..BATCH {
                    let Ok(datagram) = datagrams.try_recv() else { break };
                    proxy.feed(datagram);
                }
            }
            _ = tick.tick() => proxy.check_times(),
        }
        proxy.service().await;
    }
    proxy.shutdown().await;
    reader.abort();
    Ok(())
}
