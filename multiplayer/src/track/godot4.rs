//! A Godot 4 packet followed and named: the session learns from it, then its ids are resolved
//! (a call's node and method, a spawn's scene, each synchronizer's node and properties).

use alloc::borrow::Cow;
use alloc::string::ToString;
use alloc::vec::Vec;

use super::Tracker;
use super::message::{Args, Call, CallKind, Message, Packet, Refusal, Spawned, Synced};
use crate::godot4::{self, Godot4Packet, NodeAddress, Sys};
use crate::project::{ProjectIndex, ReplicationConfig, property_name};
use crate::session::{Route, SyncTarget, is_canonical_path};
use crate::{PacketError, PacketErrorKind};

impl Tracker {
    /// A Godot 4 packet from `from` to `to`.
    pub(super) fn packet4<'a>(
        &'a mut self,
        from: i32,
        to: i32,
        bytes: &'a [u8],
    ) -> Result<Message<'a>, Refusal> {
        let packet = godot4::decode(bytes, self.options)?;
        packet.validate()?;
        let (route, inner) = Route::of(from, to, &packet).ok_or_else(|| relay_error(&packet))?;
        // A despawned node's name, before the session forgets it.
        let despawned = match inner {
            Godot4Packet::Despawn(despawn) => {
                self.four.spawned(route, despawn.net_id()).map(|(name, _)| name.to_string())
            }
            _ => None,
        };
        self.four.observe(from, to, &packet)?;
        match inner {
            Godot4Packet::SimplifyPath(simplify) => {
                let path = core::str::from_utf8(simplify.path().text_bytes()).ok();
                if let Some(path) = path.filter(|p| !self.seen.contains(*p)) {
                    self.seen.insert(path.to_string());
                }
            }
            Godot4Packet::Spawn(spawn) => {
                if let Some(project) = &self.project {
                    let spawner = self.four.path(route, spawn.spawner());
                    let found = project.spawn_scene(
                        spawner,
                        spawn.scene(),
                        spawn.sync_ids().len(),
                        spawn.state().count(),
                    );
                    if let Some(found) = found {
                        self.scenes.insert((route, spawn.net_id()), (found.scene, found.inferred));
                    }
                }
            }
            Godot4Packet::Despawn(despawn) => {
                self.scenes.remove(&(route, despawn.net_id()));
            }
            _ => {}
        }
        let this: &'a Tracker = self;
        let relay = match packet {
            Godot4Packet::Sys(Sys::Relay(relay)) => Some(relay.peer()),
            _ => None,
        };
        let mut message = Message {
            from,
            to,
            relay,
            packet: Packet::Godot4(inner),
            call: None,
            spawn: None,
            synced: Vec::new(),
            despawned,
            methods: None,
        };
        match inner {
            Godot4Packet::Rpc(rpc) => {
                let named = this.four.rpc(route, &rpc);
                let node = named.path.map(Cow::Borrowed);
                message.call = Some(Call {
                    kind: CallKind::Rpc,
                    canonical: named.path.is_some_and(is_canonical_path),
                    node,
                    node_id: match rpc.node() {
                        NodeAddress::Cached(id) => Some(id),
                        NodeAddress::Path { .. } => None,
                    },
                    member: named.method.map(Cow::Borrowed),
                    method_id: Some(rpc.method_id()),
                    checksum: Some(named.checksum),
                    args: Args::Godot4(rpc.arguments()),
                });
            }
            Godot4Packet::SimplifyPath(simplify) => {
                message.methods = this.four.checksum(route, simplify.id());
            }
            Godot4Packet::Spawn(spawn) => {
                let known = this.scenes.get(&(route, spawn.net_id())).copied();
                let project = this.project.as_deref();
                let scene = known.and_then(|(scene, inferred)| Some((project?, scene, inferred)));
                message.spawn = Some(Spawned {
                    spawner: this.four.path(route, spawn.spawner()),
                    scene_path: scene.and_then(|(project, scene, _)| project.scene_path(scene)),
                    inferred: scene.is_some_and(|(_, _, inferred)| inferred),
                    properties: scene
                        .map(|(project, scene, _)| {
                            project
                                .spawn_properties(scene)
                                .into_iter()
                                .map(property_name)
                                .collect::<Vec<_>>()
                        })
                        .filter(|names| names.len() == spawn.state().count()),
                });
            }
            Godot4Packet::Sync(sync) => {
                for element in sync.elements() {
                    let element = element?;
                    let config = this.sync_config(route, element.net_id());
                    let properties = config
                        .map(|c| c.sync().map(property_name).collect::<Vec<_>>())
                        .filter(|names| names.len() == element.values().count());
                    message.synced.push(Synced {
                        net_id: element.net_id(),
                        target: this.four.synchronizer(route, element.net_id()),
                        properties,
                    });
                }
            }
            Godot4Packet::DeltaSync(delta) => {
                for element in delta.elements() {
                    let element = element?;
                    let config = this.sync_config(route, element.net_id());
                    let properties = config
                        .and_then(|c| {
                            let watch: Vec<&str> = c.watch().map(property_name).collect();
                            element
                                .indexes()
                                .map(|i| {
                                    usize::try_from(i).ok().and_then(|i| watch.get(i).copied())
                                })
                                .collect::<Option<Vec<&str>>>()
                        })
                        .filter(|names| names.len() == element.values().count());
                    message.synced.push(Synced {
                        net_id: element.net_id(),
                        target: this.four.synchronizer(route, element.net_id()),
                        properties,
                    });
                }
            }
            _ => {}
        }
        Ok(message)
    }

    /// The replication config of synchronizer `net_id` on `route`, from the project: a
    /// spawned node's synchronizer by its scene and index, a scene's by its path.
    fn sync_config(&self, route: Route, net_id: u32) -> Option<&ReplicationConfig> {
        let project: &ProjectIndex = self.project.as_deref()?;
        match self.four.synchronizer(route, net_id)? {
            SyncTarget::Path(path) => project.synchronizer(path),
            SyncTarget::Spawned { net_id, index, .. } => {
                let &(scene, _) = self.scenes.get(&(route, net_id))?;
                project.spawned_synchronizer(scene, index)
            }
        }
    }
}

/// Why [`Route::of`] found nothing: the error of the packet a relay carries.
fn relay_error(packet: &Godot4Packet<'_>) -> PacketError {
    let inner = match packet {
        Godot4Packet::Sys(Sys::Relay(relay)) => relay.packet().err(),
        _ => None,
    };
    inner.unwrap_or(PacketError::new(0, PacketErrorKind::SysInRelay))
}
