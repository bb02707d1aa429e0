//! A Godot 3 packet followed and named: the session learns its cache ids, then a CALL's or
//! SET's node is resolved (method and property names are on the wire).

use alloc::borrow::Cow;
use alloc::vec::Vec;

use super::Tracker;
use super::message::{Args, Call, CallKind, Message, Packet, Refusal};
use crate::godot3::{self, Godot3Packet, NodeAddress};
use crate::session::is_canonical_path;

impl Tracker {
    /// A Godot 3 packet from `from` to `to`.
    pub(super) fn packet3<'a>(
        &'a mut self,
        from: i32,
        to: i32,
        bytes: &'a [u8],
    ) -> Result<Message<'a>, Refusal> {
        let packet = godot3::decode(bytes, self.options)?;
        packet.validate()?;
        // Peer ids are signed on the wire and unsigned in the session's tables, as in Godot 3.
        let sender = from as u32;
        self.three.observe(sender, &packet)?;
        let this: &'a Tracker = self;
        let node_of = |node: NodeAddress<'a>| -> (Option<Cow<'a, str>>, Option<u32>) {
            let id = match node {
                NodeAddress::Cached(id) => Some(id),
                NodeAddress::Path { .. } => None,
            };
            (this.three.node(sender, &node), id)
        };
        let call = match packet {
            Godot3Packet::Call(call) => {
                let (node, node_id) = node_of(call.node());
                Some(Call {
                    kind: CallKind::Call,
                    canonical: node.as_deref().is_some_and(is_canonical_path),
                    node,
                    node_id,
                    member: call.method().to_text().ok(),
                    method_id: None,
                    checksum: None,
                    args: Args::Godot3(call.arguments()),
                })
            }
            Godot3Packet::Set(set) => {
                let (node, node_id) = node_of(set.node());
                Some(Call {
                    kind: CallKind::Set,
                    canonical: node.as_deref().is_some_and(is_canonical_path),
                    node,
                    node_id,
                    member: set.property().to_text().ok(),
                    method_id: None,
                    checksum: None,
                    args: Args::Set(Some(set.value()?)),
                })
            }
            _ => None,
        };
        Ok(Message {
            from,
            to,
            relay: None,
            packet: Packet::Godot3(packet),
            call,
            spawn: None,
            synced: Vec::new(),
            despawned: None,
            methods: None,
        })
    }
}
