//! [`Message`]: what one message of a connection means, as [`Tracker::message`](super::Tracker::message)
//! gives it: the packet, who sent it to whom, and the names the connection's history and the
//! project give its ids. Everything borrows the message's bytes and the tracker; nothing is
//! copied but the lists of property names and a despawned node's name.

use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use gdvariant::VariantRef;

use crate::PacketError;
use crate::godot3::{self, Godot3Packet};
use crate::godot4::{self, Godot4Packet};
use crate::session::{Checksum, SessionError, SyncTarget};

/// One message of a connection, decoded and named.
#[derive(Clone, Debug)]
pub struct Message<'a> {
    /// The sending peer (1: the server; 0 while a Godot 4 client's id is not known yet).
    pub from: i32,
    /// The peer it is for (0: everyone; `-id`: everyone but `id`).
    pub to: i32,
    /// A Godot 4 SYS RELAY: the peer the packet is relayed to (from a client) or came from
    /// (from the server); [`Message::packet`] is then the packet it carries.
    pub relay: Option<i32>,
    /// What it is.
    pub packet: Packet<'a>,
    /// The call it makes (an RPC, a Godot 3 CALL or SET), named.
    pub call: Option<Call<'a>>,
    /// A Godot 4 SPAWN: its spawner and scene, named.
    pub spawn: Option<Spawned<'a>>,
    /// A Godot 4 SYNC or DELTA_SYNC: each synchronizer it carries, in order, named.
    pub synced: Vec<Synced<'a>>,
    /// A Godot 4 DESPAWN: the despawned node's name, read before the session forgot it.
    pub despawned: Option<String>,
    /// A Godot 4 SIMPLIFY_PATH: whether the method list of the path is the peer's (`None`: no
    /// list names the path).
    pub methods: Option<Checksum>,
}

impl Message<'_> {
    /// Reads the parts a [`Message`] leaves lazy, as printing it all reads them, without
    /// formatting anything: a call's arguments ([`Call::arguments`]; a SET: its value), a SPAWN's
    /// state, and each named synchronizer's ([`Message::synced`], in order) values of a SYNC or
    /// DELTA_SYNC. A message [`Tracker::message`](super::Tracker::message) gave has been
    /// validated whole and always reads; this is for what counts messages instead of printing
    /// them and must refuse exactly what printing them would. O(those bytes); no allocation.
    ///
    /// # Errors
    /// The first value that does not read.
    pub fn check(&self) -> Result<(), PacketError> {
        fn each<T>(
            mut values: impl Iterator<Item = Result<T, PacketError>>,
        ) -> Result<(), PacketError> {
            values.try_for_each(|value| value.map(drop))
        }
        match (&self.packet, &self.call) {
            (Packet::Godot4(Godot4Packet::Rpc(_)), Some(call))
            | (Packet::Godot3(Godot3Packet::Call(_) | Godot3Packet::Set(_)), Some(call)) => {
                each(call.arguments())
            }
            (Packet::Godot4(Godot4Packet::Spawn(spawn)), _) => each(spawn.state()),
            // Zipped as printing zips them: only the elements a synchronizer was named for.
            (Packet::Godot4(Godot4Packet::Sync(sync)), _) => sync
                .elements()
                .zip(&self.synced)
                .try_for_each(|(element, _)| each(element?.values())),
            (Packet::Godot4(Godot4Packet::DeltaSync(delta)), _) => delta
                .elements()
                .zip(&self.synced)
                .try_for_each(|(element, _)| each(element?.values())),
            _ => Ok(()),
        }
    }

    /// RAW bytes (`send_bytes`), if it carries them.
    pub fn raw(&self) -> Option<&[u8]> {
        match self.packet {
            Packet::Godot4(Godot4Packet::Raw(bytes)) | Packet::Godot3(Godot3Packet::Raw(bytes)) => {
                Some(bytes)
            }
            _ => None,
        }
    }

    /// What it replicates, as an allow-list names it: a SPAWN's spawner and scene, or each
    /// synchronizer's node and the properties it carries. Empty for other messages.
    pub fn replicas(&self) -> impl Iterator<Item = Replica<'_>> {
        let spawn = self.spawn.as_ref().map(|spawn| Replica {
            kind: ReplicaKind::Spawn,
            node: spawn.spawner,
            members: spawn.scene_path.map(Members::Scene),
        });
        let synced = self.synced.iter().map(|synced| Replica {
            kind: ReplicaKind::Sync,
            node: synced.node(),
            members: synced.properties.as_deref().map(Members::Properties),
        });
        spawn.into_iter().chain(synced)
    }
}

/// The packet a message holds.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub enum Packet<'a> {
    /// A Godot 4 packet (inside a SYS RELAY: the packet it carries).
    Godot4(Godot4Packet<'a>),
    /// A Godot 3 packet (after its transport header).
    Godot3(Godot3Packet<'a>),
    /// The server tells the client its peer id (Godot 4 WebSocket's first message, Godot 3
    /// WebSocket's type 3).
    PeerId(i32),
    /// A Godot 3 transport's system message: `add_peer`, `remove_peer` (ENet), `del_peer`
    /// (WebSocket), or `system` (an ENet system message of another kind).
    System {
        /// The message's name.
        name: &'static str,
        /// The peer it is about.
        peer: i64,
    },
}

/// Which call a [`Call`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CallKind {
    /// A Godot 4 RPC (`rpc`, `rpc_id`).
    Rpc,
    /// A Godot 3 CALL (`rpc`, `rpc_id`, `rpc_unreliable`).
    Call,
    /// A Godot 3 SET (`rset`): the member is a property and the one argument its value.
    Set,
}

/// A call, named as the receiving game resolves it.
#[derive(Clone, Debug)]
pub struct Call<'a> {
    /// What kind of call.
    pub kind: CallKind,
    /// The node's path (`None`: an unknown cache id, or a path that is not text).
    pub node: Option<Cow<'a, str>>,
    /// The cache id the packet names the node by (`None`: the path is in the packet).
    pub node_id: Option<u32>,
    /// The method (a SET: the property); `None` when no verified method list names a Godot 4
    /// method id, or a Godot 3 name is not text.
    pub member: Option<Cow<'a, str>>,
    /// A Godot 4 RPC's method id.
    pub method_id: Option<u16>,
    /// A Godot 4 RPC: whether the method list that names it is the peer's.
    pub checksum: Option<Checksum>,
    /// Whether the node path is spelled as Godot's sender spells it
    /// ([`is_canonical_path`](crate::session::is_canonical_path)); a filter matching paths by
    /// text must refuse the other spellings.
    pub canonical: bool,
    pub(crate) args: Args<'a>,
}

/// Where a call's arguments are.
#[derive(Clone, Debug)]
pub(crate) enum Args<'a> {
    Godot4(godot4::Arguments<'a>),
    Godot3(godot3::Arguments3<'a>),
    Set(Option<gdvariant::view::Element<'a>>),
}

impl<'a> Call<'a> {
    /// The arguments (a SET: the value), read lazily from the packet, each with the bytes it
    /// was carried in. O(their bytes) in all; no allocation.
    pub fn arguments(&self) -> Arguments<'a> {
        Arguments { args: self.args.clone() }
    }
}

impl fmt::Display for Call<'_> {
    /// `node::member`, with `?` for what is unknown.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let node = self.node.as_deref().unwrap_or("?");
        let member = self.member.as_deref().unwrap_or("?");
        write!(f, "{node}::{member}")
    }
}

/// A call's arguments ([`Call::arguments`]).
#[derive(Clone, Debug)]
pub struct Arguments<'a> {
    args: Args<'a>,
}

/// One argument of a call.
#[derive(Clone, Copy, Debug)]
pub struct Argument<'a> {
    /// The value, as the game reads it.
    pub value: VariantRef<'a>,
    /// The bytes the packet carried it in (Godot 3: its `var2bytes`; Godot 4: its compressed
    /// form, see [`godot4::Carried::bytes`]).
    pub bytes: &'a [u8],
}

impl<'a> Iterator for Arguments<'a> {
    type Item = Result<Argument<'a>, PacketError>;

    fn next(&mut self) -> Option<Self::Item> {
        match &mut self.args {
            Args::Godot4(args) => Some(
                args.next_carried()?
                    .map(|carried| Argument { value: carried.value.value(), bytes: carried.bytes }),
            ),
            Args::Godot3(args) => Some(
                args.next()?
                    .map(|element| Argument { value: element.value(), bytes: element.raw_bytes() }),
            ),
            Args::Set(value) => value
                .take()
                .map(|element| Ok(Argument { value: element.value(), bytes: element.raw_bytes() })),
        }
    }
}

/// A Godot 4 SPAWN, named.
#[derive(Clone, Debug, Default)]
pub struct Spawned<'a> {
    /// The spawner's path, when the session knows its cache id.
    pub spawner: Option<&'a str>,
    /// The scene it spawned, from the project: its `res://` path.
    pub scene_path: Option<&'a str>,
    /// Whether the scene was inferred (a custom spawn, matched by its synchronizers and state).
    pub inferred: bool,
    /// The names of the properties its state carries, in order (from the project, when they
    /// match the state's count).
    pub properties: Option<Vec<&'a str>>,
}

/// One synchronizer of a SYNC or DELTA_SYNC, named.
#[derive(Clone, Debug)]
pub struct Synced<'a> {
    /// Its network id.
    pub net_id: u32,
    /// The node it stands for, when the session knows the id.
    pub target: Option<SyncTarget<'a>>,
    /// The names of the properties it carries, in order (from the project, when they match the
    /// values' count).
    pub properties: Option<Vec<&'a str>>,
}

impl<'a> Synced<'a> {
    /// The synchronizer's node as an allow-list names it: its path, or a spawned node's name.
    pub fn node(&self) -> Option<&'a str> {
        match self.target? {
            SyncTarget::Path(path) => Some(path),
            SyncTarget::Spawned { name, .. } => Some(name),
        }
    }
}

/// What a message replicates, as an allow-list names it ([`Message::replicas`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Replica<'m> {
    /// A spawn or a synchronizer's values.
    pub kind: ReplicaKind,
    /// SPAWN: the spawner's path; SYNC: the synchronizer's node (a spawned node: its name).
    /// `None` when the session cannot name it.
    pub node: Option<&'m str>,
    /// What it carries; `None` when it cannot be named (no project, or one that does not
    /// describe it).
    pub members: Option<Members<'m>>,
}

/// A spawn or a synchronizer's values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ReplicaKind {
    /// A SPAWN.
    Spawn,
    /// A SYNC or DELTA_SYNC element.
    Sync,
}

/// What a [`Replica`] carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Members<'m> {
    /// A spawn's scene path.
    Scene(&'m str),
    /// A synchronizer's properties, in order.
    Properties(&'m [&'m str]),
}

impl<'m> Members<'m> {
    /// Each member's name.
    pub fn iter(&self) -> impl Iterator<Item = &'m str> + '_ {
        let (one, many): (Option<&'m str>, &'m [&'m str]) = match *self {
            Members::Scene(scene) => (Some(scene), &[]),
            Members::Properties(names) => (None, names),
        };
        one.into_iter().chain(many.iter().copied())
    }
}

/// Why the tracker refuses a message (its session is unchanged then).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Refusal {
    /// Godot refuses the bytes.
    Packet(PacketError),
    /// The ids make no sense in the session.
    Session(SessionError),
}

impl Refusal {
    /// `invalid_packet` or `session`.
    pub const fn reason(&self) -> &'static str {
        match self {
            Refusal::Packet(_) => "invalid_packet",
            Refusal::Session(_) => "session",
        }
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::Packet(error) => error.fmt(f),
            Refusal::Session(error) => error.fmt(f),
        }
    }
}

impl core::error::Error for Refusal {}

impl From<PacketError> for Refusal {
    fn from(error: PacketError) -> Self {
        Refusal::Packet(error)
    }
}

impl From<SessionError> for Refusal {
    fn from(error: SessionError) -> Self {
        Refusal::Session(error)
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use alloc::vec;

    use gdvariant::Options;

    use super::{Args, Call, CallKind, Message, Packet, Synced};
    use crate::PacketError;
    use crate::godot4::{self, Godot4Packet};

    /// A message of `packet` with nothing named.
    fn message(packet: Godot4Packet<'_>) -> Message<'_> {
        Message {
            from: 2,
            to: 1,
            relay: None,
            packet: Packet::Godot4(packet),
            call: None,
            spawn: None,
            synced: vec![],
            despawned: None,
            methods: None,
        }
    }

    /// Packets whose frame decodes but one of whose values does not (0x3f: no type).
    fn decoded(bytes: &[u8]) -> (Godot4Packet<'_>, PacketError) {
        let packet = godot4::decode(bytes, Options::godot4()).unwrap();
        let error = packet.validate().expect_err("a value that does not read");
        (packet, error)
    }

    #[test]
    fn check_refuses_the_arguments_state_and_values_printing_reads() {
        // RPC on cached node 1, method 0, two arguments: int 5, then nothing.
        let rpc = [0x00, 0x01, 0x00, 0x02, 0x02, 0x05];
        let (packet, error) = decoded(&rpc);
        let Godot4Packet::Rpc(read) = packet else { panic!("{packet:?}") };
        let mut with_call = message(packet);
        assert_eq!(with_call.check(), Ok(()), "no call named: nothing read");
        with_call.call = Some(Call {
            kind: CallKind::Rpc,
            node: None,
            node_id: Some(1),
            member: None,
            method_id: Some(0),
            checksum: None,
            canonical: false,
            args: Args::Godot4(read.arguments()),
        });
        assert_eq!(with_call.check(), Err(error));

        // SPAWN of scene 0 by spawner 1, net id 2, no synchronizer, name "a", state: a value
        // that does not read.
        let mut spawn = vec![0x04, 0x00, 1, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0];
        spawn.extend_from_slice(b"a\0\x3f");
        let (packet, error) = decoded(&spawn);
        assert_eq!(message(packet).check(), Err(error));

        // SYNC: an element of synchronizer 3 whose one byte does not read; DELTA_SYNC the
        // same with mask 1. Only the elements a synchronizer was named for are read.
        let sync = [0x06, 0, 0, 3, 0, 0, 0, 1, 0, 0, 0, 0x3f];
        let delta = [0x16, 3, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0x3f];
        for bytes in [&sync[..], &delta[..]] {
            let (packet, error) = decoded(bytes);
            let mut synced = message(packet);
            assert_eq!(synced.check(), Ok(()), "{bytes:?}: no synchronizer named");
            synced.synced.push(Synced { net_id: 3, target: None, properties: None });
            assert_eq!(synced.check(), Err(error), "{bytes:?}");
        }
    }
}
