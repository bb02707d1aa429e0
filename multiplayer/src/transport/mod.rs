//! What the transports add around a multiplayer packet.
//!
//! | transport | around each packet |
//! | --- | --- |
//! | Godot 3 `NetworkedMultiplayerENet` | 8 bytes: the sender's id, the target ([`enet3`]); channel 0 carries the server's peer announcements instead |
//! | Godot 3 `WebSocketMultiplayerPeer` | 9 bytes: a type, from, to ([`websocket3`]); system messages announce ids and peers |
//! | Godot 4 `ENetMultiplayerPeer` | nothing |
//! | Godot 4 `WebSocketMultiplayerPeer` | nothing, but the server's first message is the client's id ([`websocket4`]) |
//!
//! Every reader is O(1) and allocation-free; every writer appends to an
//! [`Output`](gdvariant::encoder::Output).

pub mod enet3;
pub mod websocket3;
pub mod websocket4;
