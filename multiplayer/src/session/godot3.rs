//! [`Session3`]: a Godot 3 connection's path-cache ids.

use alloc::collections::BTreeMap;
use alloc::string::String;

use super::{Limits, SessionError, entry_bytes};
use crate::godot3::{Godot3Packet, NodeAddress};

/// The path-cache ids of one Godot 3 connection, per sender. Godot 3 sends method and property
/// names as text, so only node paths need a session.
#[derive(Clone, Debug)]
pub struct Session3 {
    limits: Limits,
    senders: BTreeMap<u32, BTreeMap<u32, String>>,
    entries: usize,
    /// What [`Limits::max_bytes`] counts.
    bytes: usize,
}

impl Session3 {
    /// An empty session.
    pub fn new(limits: Limits) -> Self {
        Session3 { limits, senders: BTreeMap::new(), entries: 0, bytes: 0 }
    }

    /// Entries kept.
    pub fn entries(&self) -> usize {
        self.entries
    }

    /// Follows one packet sent by peer `sender`: a SIMPLIFY defines (or, as in Godot 3,
    /// redefines) a cache id. O(log entries + path length).
    ///
    /// # Errors
    /// A path that is not Godot 3 text, or a [`Limits`] bound.
    pub fn observe(&mut self, sender: u32, packet: &Godot3Packet<'_>) -> Result<(), SessionError> {
        if let Godot3Packet::SimplifyPath { id, path } = packet {
            let text = path.to_text().map_err(|_| SessionError::NotText)?;
            let levels = usize::BITS.saturating_sub(self.entries.leading_zeros()) as usize;
            crate::work(1usize.saturating_add(levels).saturating_add(text.len() >> 4));
            if text.len() > self.limits.max_path {
                return Err(SessionError::Limit);
            }
            let paths = self.senders.entry(sender).or_default();
            let freed = paths.get(id).map_or(0, |old| entry_bytes(old.len(), 0));
            let bytes = self.bytes.saturating_sub(freed).saturating_add(entry_bytes(text.len(), 0));
            if bytes > self.limits.max_bytes {
                return Err(SessionError::Limit);
            }
            if !paths.contains_key(id) {
                if self.entries >= self.limits.max_entries {
                    return Err(SessionError::Limit);
                }
                self.entries = self.entries.saturating_add(1);
            }
            self.bytes = bytes;
            paths.insert(*id, text.into_owned());
        }
        Ok(())
    }

    /// The path peer `sender` gave cache id `id`. O(log entries).
    pub fn path(&self, sender: u32, id: u32) -> Option<&str> {
        self.senders.get(&sender)?.get(&id).map(String::as_str)
    }

    /// The node path a CALL or SET from `sender` names (as the game reads it: a Godot 3 path
    /// spelled with overlong forms is normalised), or `None` for an unknown cache id or a path
    /// that is not text. O(log entries + path length).
    pub fn node<'s>(
        &'s self,
        sender: u32,
        node: &NodeAddress<'s>,
    ) -> Option<alloc::borrow::Cow<'s, str>> {
        match node {
            NodeAddress::Cached(id) => self.path(sender, *id).map(alloc::borrow::Cow::Borrowed),
            NodeAddress::Path { path, .. } => path.to_text().ok(),
        }
    }
}
