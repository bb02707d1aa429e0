//! `gdvariant proxy`: a validating proxy for Godot traffic over TCP (`StreamPeer.put_var`,
//! `PacketPeerStream`), UDP (`PacketPeerUDP`), WebSocket (`WebSocketPeer`) and ENet
//! (`NetworkedMultiplayerENet`, `ENetMultiplayerPeer`), built on the library's relay
//! (`gdvariant_relay`), which accepts the clients, connects each upstream and checks every
//! message as Godot reads it.
//!
//! Every frame Godot's `get_var` would accept is forwarded byte for byte and in order, in both
//! directions; every other frame is dropped (or, with `--disconnect`, closes the connection),
//! with one JSON line on standard error. At exit (Ctrl-C or SIGTERM) one JSON summary line is
//! printed. Files: `settings.rs` (arguments to the relay's config and the filter's settings),
//! `filter.rs` (the relay's filter, composed of the library's: `--drop-if` rules and the rate
//! limit, or with `--multiplayer` the library's guard, which follows each connection and
//! applies the rules file), `rules.rs` (`--drop-if`), `report.rs` (the JSON lines and counters),
//! `capture.rs` (the `--capture` file).

mod capture;
mod filter;
mod report;
mod rules;
mod settings;

use std::net::SocketAddr;
use std::process::ExitCode;
use std::sync::Arc;

use clap::{Args, ValueEnum};
use gdvariant_relay::Relay;

use crate::PrefixKind;
use crate::failure::Failure;
use report::{Events, Report};
use settings::Settings;

/// The Godot version on both sides of the proxy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ProxyGodot {
    /// Godot 3.x.
    #[value(name = "3")]
    Three,
    /// Godot 4.x.
    #[value(name = "4")]
    Four,
}

/// Arguments of `gdvariant proxy`.
#[derive(Args, Debug)]
pub struct ProxyArgs {
    /// Address to listen on (`127.0.0.1:0` picks a free port; the address is printed).
    #[arg(long, value_name = "ADDR")]
    pub listen: SocketAddr,
    /// Address to forward to (`host:port`; with --websocket also a `ws://` URL).
    #[arg(long, value_name = "ADDR")]
    pub upstream: String,
    /// UDP: one value per datagram (`PacketPeerUDP`), one upstream socket per client address.
    #[arg(long, conflicts_with = "websocket")]
    pub udp: bool,
    /// WebSocket: one value per message (`WebSocketPeer.put_var`); upstream is a WebSocket
    /// server.
    #[arg(long)]
    pub websocket: bool,
    /// ENet (Godot 3's `NetworkedMultiplayerENet`, Godot 4's `ENetMultiplayerPeer`): the proxy
    /// is the ENet server of each client and, per client, an ENet client of the upstream server
    /// (same connect data, channels and delivery flags). Without --multiplayer each packet is
    /// one value (Godot 3: after the 8-byte header).
    #[arg(long, conflicts_with_all = ["udp", "websocket", "prefix", "big_endian"])]
    pub enet: bool,
    /// Godot version of the traffic.
    #[arg(long, value_enum, default_value = "4")]
    pub godot: ProxyGodot,
    /// Accept full objects, as `get_var(true)` does (refused by default, as Godot does).
    #[arg(long)]
    pub allow_objects: bool,
    /// The length prefix of TCP frames.
    #[arg(long, value_enum, default_value = "stream-peer")]
    pub prefix: PrefixKind,
    /// The TCP length prefix is big-endian (the peers' `big_endian` is set).
    #[arg(long)]
    pub big_endian: bool,
    /// Largest frame forwarded, in bytes (the value; a TCP prefix is not counted). Larger frames
    /// are dropped without being buffered. `--max-frame-len` is the same option, under the name
    /// the commands that read dumps give it.
    #[arg(long, visible_alias = "max-frame-len", value_name = "BYTES", default_value_t = 1 << 20)]
    pub max_frame: u32,
    /// Drop a frame, in either direction, whose value at PATH equals VALUE (`cmd="admin"`,
    /// `player/hp=0`, `god=true`; PATH!=VALUE: differs or is missing). VALUE is an int, a float
    /// (1 equals 1.0), true, false, null, or a string (quoted or not), compared with the text
    /// the game reads. A frame the path cannot be followed in (a packed array, a string, a math
    /// value on the way) is dropped too: what the game reads there is unknown. Repeatable.
    #[arg(long, value_name = "PATH=VALUE")]
    pub drop_if: Vec<String>,
    /// As --drop-if, for frames from clients (to the upstream server) only. Repeatable.
    #[arg(long, value_name = "PATH=VALUE")]
    pub drop_if_from_client: Vec<String>,
    /// As --drop-if, for frames from the upstream server (to clients) only. Repeatable.
    #[arg(long, value_name = "PATH=VALUE")]
    pub drop_if_from_server: Vec<String>,
    /// Frames per second each client may send (a burst of one second's worth is allowed); frames
    /// over the rate are dropped.
    #[arg(long, value_name = "FRAMES")]
    pub rate_limit: Option<u32>,
    /// Close the connection (both sides) on the first frame that would be dropped, instead of
    /// dropping the frame and going on.
    #[arg(long)]
    pub disconnect: bool,
    /// Close a connection (or forget a UDP client) after this many seconds without a complete
    /// frame in either direction; also bounds connecting upstream and each write.
    #[arg(long, value_name = "SECONDS", default_value_t = 60.0)]
    pub idle_timeout: f64,
    /// Most connections (UDP: client addresses; ENet: peers, at most 4095) served at once; more
    /// are closed at once (ENet ignores them).
    #[arg(long, value_name = "N", default_value_t = 1024)]
    pub max_connections: usize,
    /// WebSocket messages (or ENet packets) are Godot's high-level multiplayer packets
    /// (`SceneMultiplayer`, Godot 3's `MultiplayerAPI` with its 9-byte WebSocket or 8-byte ENet
    /// header), decoded instead of read as values. Needs --websocket or --enet.
    #[arg(long)]
    pub multiplayer: bool,
    /// With --multiplayer: a rules file (Godot 4 method lists; `allow` lines: only the calls
    /// they allow pass from clients, each at most at its rate).
    #[arg(long, value_name = "FILE", requires = "multiplayer")]
    pub rules: Option<std::path::PathBuf>,
    /// With --multiplayer (Godot 4): the game's project folder, whose scripts and scenes name
    /// RPC methods (a rules file's method lines win for the nodes they name).
    #[arg(long, value_name = "DIR", requires = "multiplayer")]
    pub project: Option<std::path::PathBuf>,
    /// With --multiplayer: log every call (RPC, rset) as a JSON line on standard error.
    #[arg(long, requires = "multiplayer")]
    pub log_calls: bool,
    /// With --multiplayer: write every message received to FILE (`gdvariant multiplayer FILE`
    /// prints it).
    #[arg(long, value_name = "FILE", requires = "multiplayer")]
    pub capture: Option<std::path::PathBuf>,
    /// With --multiplayer: forward every message, dropping nothing (decode, log the calls and
    /// capture only; what would have been dropped is still logged as a `drop` line, with
    /// `"monitor":true`).
    #[arg(long, requires = "multiplayer")]
    pub monitor: bool,
}

/// Runs the proxy until Ctrl-C or SIGTERM, then prints the summary.
pub fn run(args: &ProxyArgs) -> Result<ExitCode, Failure> {
    let mut settings = Settings::from_args(args)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| Failure::Input(format!("cannot start the runtime: {e}")))?;
    let report = Arc::new(Report::new(settings.options.version(), settings.capture.take()));
    let settings = Arc::new(settings);
    let events = Events { report: Arc::clone(&report), log_refused: !args.udp };
    let filter = filter::build(&settings, &report);
    let served = runtime.block_on(async {
        let config = settings.relay.clone();
        let listen = config.listen_addr();
        let relay = Relay::bind(config)
            .await
            .map_err(|e| Failure::Input(format!("cannot listen on {listen}: {e}")))?;
        // Listen for a stop before saying where the proxy listens: a signal sent on that line
        // is then never missed.
        let stop = stop_signal();
        report.listening(relay.local_addr(), relay.config().transport().name());
        relay.run(filter, events, stop).await.map_err(|e| Failure::Input(e.to_string()))
    });
    // Connections still open are closed when the runtime goes.
    runtime.shutdown_background();
    report.summary();
    served.map(|()| ExitCode::SUCCESS)
}

/// Resolves at Ctrl-C (SIGINT) or SIGTERM. The listeners are registered when this is called,
/// not when the future is first polled, so a signal that arrives right after the `listening`
/// line is printed is not missed. Call it inside the runtime.
fn stop_signal() -> impl std::future::Future<Output = ()> {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let interrupt = signal(SignalKind::interrupt());
        let terminate = signal(SignalKind::terminate());
        async move {
            match (interrupt, terminate) {
                (Ok(mut interrupt), Ok(mut terminate)) => {
                    tokio::select! {
                        _ = interrupt.recv() => {}
                        _ = terminate.recv() => {}
                    }
                }
                (Ok(mut interrupt), Err(_)) => {
                    interrupt.recv().await;
                }
                (Err(_), _) => {
                    let _ = tokio::signal::ctrl_c().await;
                }
            }
        }
    }
    #[cfg(not(unix))]
    {
        async {
            let _ = tokio::signal::ctrl_c().await;
        }
    }
}
