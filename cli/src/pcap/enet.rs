//! How `gdvariant pcap` prints an ENet flow's messages: each with its channel and transfer
//! mode; without `--multiplayer` its value (Godot 3: after the 8-byte header; a system message
//! as its name and peer), with `--multiplayer` the high-level packet as `gdvariant
//! multiplayer` prints it, read by one library tracker per flow.

use std::collections::BTreeMap;
use std::sync::Arc;

use gdvariant::{Options, Version};
use gdvariant_multiplayer::Framing;
use gdvariant_multiplayer::track::Tracker;
use gdvariant_multiplayer::transport::enet3;
use gdvariant_pcap::{EnetMessage, FlowId};
use serde_json::{Map, Value, json};

use crate::Format;
use crate::multiplayer::describe::describe;
use crate::multiplayer::{exact_json, values};

/// Prints ENet messages; keeps a tracker per flow with `--multiplayer`.
pub struct Printer {
    version: Version,
    format: Format,
    allow_objects: bool,
    multiplayer: bool,
    trackers: BTreeMap<FlowId, Tracker>,
}

impl Printer {
    /// A printer of `version` traffic.
    pub fn new(version: Version, format: Format, allow_objects: bool, multiplayer: bool) -> Self {
        Printer { version, format, allow_objects, multiplayer, trackers: BTreeMap::new() }
    }

    /// The line of `message`.
    pub fn line(&mut self, message: &EnetMessage<'_>) -> String {
        let head = format!(
            "{}\t{}\t{}\tch{} {}",
            message.time,
            message.flow,
            message.direction.name(),
            message.channel,
            message.transfer.name()
        );
        let mut base = Map::new();
        base.insert("time".into(), exact_json::verbatim(message.time.to_string()));
        base.insert("flow".into(), json!(message.flow.to_string()));
        base.insert("direction".into(), json!(message.direction.name()));
        base.insert("channel".into(), json!(message.channel));
        base.insert("transfer".into(), json!(message.transfer.name()));
        if self.multiplayer {
            self.packet(message, head, base)
        } else {
            self.value(message, head, base)
        }
    }

    /// The message as a high-level multiplayer packet.
    fn packet(
        &mut self,
        message: &EnetMessage<'_>,
        head: String,
        mut base: Map<String, Value>,
    ) -> String {
        let (version, allow) = (self.version, self.allow_objects);
        let tracker = self.trackers.entry(message.flow).or_insert_with(|| {
            let framing =
                if version == Version::Godot3 { Framing::Enet3 } else { Framing::Packets };
            let tracker = Tracker::new(version, framing, Arc::default()).with_allow_objects(allow);
            match message.client_id.and_then(|id| i32::try_from(id).ok()) {
                Some(id) if version == Version::Godot4 => tracker.with_client(id),
                _ => tracker,
            }
        });
        let natural = self.format == Format::Natural;
        let decoded = tracker
            .message(message.direction, message.channel, &message.bytes)
            .map_err(|refusal| (refusal.reason(), refusal.to_string()))
            .and_then(|m| {
                let described =
                    describe(&m, natural).map_err(|error| ("invalid_packet", error.to_string()))?;
                Ok((m.from, m.to, described))
            });
        let hex = values::hex(&message.bytes);
        match (decoded, self.format) {
            (Ok((from, to, described)), Format::Text) => {
                format!("{head}\t{from} -> {to}\t{}", described.text)
            }
            (Ok((from, to, described)), _) => {
                base.insert("from".into(), json!(from));
                base.insert("to".into(), json!(to));
                base.insert("hex".into(), json!(hex));
                base.insert("message".into(), described.json);
                exact_json::to_line(&Value::Object(base))
            }
            (Err((reason, detail)), Format::Text) => {
                format!("{head}\trefused ({reason}): {detail}")
            }
            (Err((reason, detail)), _) => {
                base.insert("hex".into(), json!(hex));
                base.insert("refused".into(), json!(reason));
                base.insert("detail".into(), json!(detail));
                exact_json::to_line(&Value::Object(base))
            }
        }
    }

    /// The message as one value (Godot 3: after its header).
    fn value(
        &self,
        message: &EnetMessage<'_>,
        head: String,
        mut base: Map<String, Value>,
    ) -> String {
        let options = Options::new(self.version).with_allow_objects(self.allow_objects);
        let bytes: &[u8] = &message.bytes;
        let payload = if self.version == Version::Godot3 {
            match enet3::decode(bytes, message.channel) {
                Ok(enet3::EnetPacket::Data { payload, .. }) => Ok(payload),
                Ok(enet3::EnetPacket::System { message: system, peer }) => {
                    Err(format!("system message {} (peer {peer})", system.number()))
                }
                Err(error) => Err(format!("error: {error}")),
            }
        } else {
            Ok(bytes)
        };
        let rendered = payload.and_then(|payload| {
            let value = gdvariant::parse(payload, options).map_err(|e| format!("error: {e}"))?;
            Ok((payload, value))
        });
        match (rendered, self.format) {
            (Ok((_, value)), Format::Text) => {
                format!("{head}\t{}", values::text(value, self.version))
            }
            (Err(text), Format::Text) => format!("{head}\t{text}"),
            (Ok((payload, value)), format) => {
                base.insert("hex".into(), json!(values::hex(payload)));
                let _ = match crate::render::render(value, format, self.version) {
                    Ok(json) => base.insert("value".into(), exact_json::verbatim(json)),
                    Err(error) => base.insert("error".into(), json!(error.to_string())),
                };
                exact_json::to_line(&Value::Object(base))
            }
            (Err(text), _) => {
                base.insert("hex".into(), json!(values::hex(bytes)));
                base.insert("error".into(), json!(text));
                exact_json::to_line(&Value::Object(base))
            }
        }
    }
}
