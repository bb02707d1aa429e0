//! [`Settings`]: the proxy's arguments, checked and turned into library options and rules.

use std::net::SocketAddr;
use std::time::Duration;

use gdvariant::framing::LengthPrefix;
use gdvariant::{Options, Version};

use super::capture::CaptureFile;
use super::rules::DropIf;
use super::{Direction, ProxyArgs, ProxyGodot};
use crate::FrameArgs;
use crate::failure::Failure;
use crate::multiplayer::project;
use crate::multiplayer::rules::Rules;

/// Most peers an ENet host serves (ENet's 12-bit peer ids).
const ENET_MAX_PEERS: usize = 4095;

/// Everything a connection needs to know, shared by all of them.
#[derive(Debug)]
pub struct Settings {
    /// Where to listen.
    pub listen: SocketAddr,
    /// Where to forward to.
    pub upstream: String,
    /// How values are checked.
    pub options: Options,
    /// The TCP length prefix, its limit set to `max_frame`.
    pub prefix: LengthPrefix,
    /// Largest value forwarded, in bytes.
    pub max_frame: u32,
    /// Frames dropped by content (`--drop-if` rules, then the per-direction ones).
    pub drop_if: Vec<DropIf>,
    /// Frames per second a client may send.
    pub rate_limit: Option<u32>,
    /// Close on the first dropped frame.
    pub disconnect: bool,
    /// The idle timeout.
    pub idle: Duration,
    /// Most connections (or UDP clients) at once.
    pub max_connections: usize,
    /// Messages are multiplayer packets.
    pub multiplayer: bool,
    /// The multiplayer rules file.
    pub rules: Option<Rules>,
    /// Log every multiplayer call.
    pub log_calls: bool,
    /// The capture file.
    pub capture: Option<CaptureFile>,
    /// Forward everything (multiplayer).
    pub monitor: bool,
}

impl Settings {
    /// The settings the arguments ask for.
    pub fn from_args(args: &ProxyArgs) -> Result<Self, Failure> {
        let version = match args.godot {
            ProxyGodot::Three => Version::Godot3,
            ProxyGodot::Four => Version::Godot4,
        };
        if !(args.idle_timeout.is_finite() && args.idle_timeout > 0.0) {
            return Err(Failure::Usage("--idle-timeout must be a positive number".into()));
        }
        if args.max_connections == 0 {
            return Err(Failure::Usage("--max-connections must be at least 1".into()));
        }
        if args.multiplayer && !(args.websocket || args.enet) {
            return Err(Failure::Usage("--multiplayer needs --websocket or --enet".into()));
        }
        if args.enet && args.max_connections > ENET_MAX_PEERS {
            return Err(Failure::Usage(format!(
                "--max-connections: ENet serves at most {ENET_MAX_PEERS} peers"
            )));
        }
        let drop_rules = [&args.drop_if, &args.drop_if_from_client, &args.drop_if_from_server];
        if args.multiplayer && drop_rules.iter().any(|rules| !rules.is_empty()) {
            // Refused, not ignored: a filter the proxy cannot apply must not look applied.
            return Err(Failure::Usage(
                "--drop-if reads one value per frame; with --multiplayer a message is a \
                 multiplayer packet: filter calls with --rules"
                    .into(),
            ));
        }
        if args.rate_limit == Some(0) {
            return Err(Failure::Usage("--rate-limit must be at least 1".into()));
        }
        let rules = [
            (&args.drop_if, None),
            (&args.drop_if_from_client, Some(Direction::ToUpstream)),
            (&args.drop_if_from_server, Some(Direction::ToClient)),
        ];
        let drop_if = rules
            .into_iter()
            .flat_map(|(texts, direction)| {
                texts.iter().map(move |rule| DropIf::parse(rule, direction))
            })
            .collect::<Result<_, _>>()?;
        let frames = FrameArgs {
            prefix: args.prefix,
            big_endian: args.big_endian,
            max_frame_len: args.max_frame,
        };
        let rules = args.rules.as_deref().map(Rules::read).transpose()?;
        let rules = project::for_proxy(rules, args.project.as_deref(), version)?;
        let capture = match &args.capture {
            Some(path) => {
                use gdvariant_multiplayer::capture::Transport;
                let transport = match (version, args.enet) {
                    (Version::Godot3, false) => Transport::WebSocket3,
                    (Version::Godot4, false) => Transport::WebSocket4,
                    (Version::Godot3, true) => Transport::Enet3,
                    (Version::Godot4, true) => Transport::Packets,
                };
                let header = gdvariant_multiplayer::capture::Header { version, transport };
                Some(CaptureFile::create(path, header)?)
            }
            None => None,
        };
        Ok(Settings {
            listen: args.listen,
            upstream: args.upstream.clone(),
            options: Options::new(version).with_allow_objects(args.allow_objects),
            prefix: crate::options::prefix(frames),
            max_frame: args.max_frame,
            drop_if,
            rate_limit: args.rate_limit,
            disconnect: args.disconnect,
            idle: Duration::from_secs_f64(args.idle_timeout.min(1e9)),
            max_connections: args.max_connections,
            multiplayer: args.multiplayer,
            rules,
            log_calls: args.log_calls,
            capture,
            monitor: args.monitor,
        })
    }
}
