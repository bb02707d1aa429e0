//! How `gdvariant pcap` prints an ENet flow's messages: each with its channel and transfer
//! mode; without `--multiplayer` its value (Godot 3: after the 8-byte header; a system message
//! as its name and peer), with `--multiplayer` the high-level packet as `gdvariant
//! multiplayer` prints it, read by the flow's library tracker (`multiplayer.rs`). The version
//! is the flow's (told per flow, or `--godot`).

use gdvariant::{Options, Version};
use gdvariant_multiplayer::transport::enet3;
use gdvariant_pcap::EnetMessage;
use serde_json::{Map, Value, json};

use super::multiplayer::Multiplayer;
use crate::Format;
use crate::multiplayer::{exact_json, values};

/// Prints ENet messages.
pub struct Printer {
    format: Format,
    allow_objects: bool,
}

impl Printer {
    /// A printer in `format`.
    pub fn new(format: Format, allow_objects: bool) -> Self {
        Printer { format, allow_objects }
    }

    /// The line of `message` (a multiplayer packet with `multiplayer`).
    pub fn line(&self, message: &EnetMessage<'_>, multiplayer: Option<&mut Multiplayer>) -> String {
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
        match multiplayer {
            Some(multiplayer) => self.packet(message, multiplayer, head, base),
            None => self.value(message, head, base),
        }
    }

    /// The message as a high-level multiplayer packet.
    fn packet(
        &self,
        message: &EnetMessage<'_>,
        multiplayer: &mut Multiplayer,
        head: String,
        mut base: Map<String, Value>,
    ) -> String {
        let decoded = multiplayer.enet(message);
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
        let version = message.version;
        let options = Options::new(version).with_allow_objects(self.allow_objects);
        let bytes: &[u8] = &message.bytes;
        let payload = if version == Version::Godot3 {
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
                format!("{head}\t{}", values::text(value, version))
            }
            (Err(text), Format::Text) => format!("{head}\t{text}"),
            (Ok((payload, value)), format) => {
                base.insert("hex".into(), json!(values::hex(payload)));
                let _ = match crate::render::render(value, format, version) {
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
