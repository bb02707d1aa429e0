//! [`Settings`]: the proxy's arguments, checked and turned into the relay's config
//! (`gdvariant_relay::Config`), the filter's rules and the capture file.

use std::time::Duration;

use std::sync::Arc;

use gdvariant::{Options, Version};
use gdvariant_multiplayer::Framing;
use gdvariant_multiplayer::rules::Rules;
use gdvariant_relay::{Config, Direction, ENET_MAX_PEERS, Messages, Transport};

use super::capture::CaptureFile;
use super::rules::DropIf;
use super::{ProxyArgs, ProxyGodot};
use crate::FrameArgs;
use crate::failure::Failure;
use crate::multiplayer::project;

/// Everything the proxy's filter needs to know, shared by every connection.
#[derive(Debug)]
pub struct Settings {
    /// The relay's config: addresses, transport, limits.
    pub relay: Config,
    /// How values are checked.
    pub options: Options,
    /// Frames dropped by content (`--drop-if` rules, then the per-direction ones).
    pub drop_if: Arc<Vec<DropIf>>,
    /// Frames per second a client may send.
    pub rate_limit: Option<u32>,
    /// Messages are multiplayer packets.
    pub multiplayer: bool,
    /// The multiplayer rules file (with the project's method lists).
    pub rules: Option<Rules>,
    /// The game's project (`--project`): names what SPAWN and SYNC carry.
    pub project: Option<std::sync::Arc<gdvariant_multiplayer::project::ProjectIndex>>,
    /// Log every multiplayer call.
    pub log_calls: bool,
    /// The capture file (taken by the report).
    pub capture: Option<CaptureFile>,
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
            (&args.drop_if_from_client, Some(Direction::ToServer)),
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
        let rules = args.rules.as_deref().map(project::read_rules).transpose()?;
        let (rules, project) = project::for_proxy(rules, args.project.as_deref(), version)?;
        let capture = match &args.capture {
            Some(path) => {
                let framing = Framing::of(version, args.enet);
                let header = gdvariant_multiplayer::capture::Header { version, framing };
                Some(CaptureFile::create(path, header)?)
            }
            None => None,
        };
        let options = Options::new(version).with_allow_objects(args.allow_objects);
        let transport = if args.udp {
            Transport::Udp
        } else if args.enet {
            Transport::Enet
        } else if args.websocket {
            Transport::WebSocket
        } else {
            Transport::Tcp(crate::options::prefix(frames))
        };
        let messages = if args.multiplayer { Messages::Multiplayer } else { Messages::Values };
        let relay = Config::new(version, transport, args.listen, args.upstream.clone())
            .allow_objects(args.allow_objects)
            .messages(messages)
            .max_frame(args.max_frame)
            .idle_timeout(Duration::from_secs_f64(args.idle_timeout.min(1e9)))
            .max_connections(args.max_connections)
            .close_on_drop(args.disconnect)
            .dry_run(args.monitor);
        Ok(Settings {
            relay,
            options,
            drop_if: Arc::new(drop_if),
            rate_limit: args.rate_limit,
            multiplayer: args.multiplayer,
            rules,
            project,
            log_calls: args.log_calls,
            capture,
        })
    }
}
