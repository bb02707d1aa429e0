//! `gdvariant pcap`'s WebSocket lines: the upgrade, text messages, pings, pongs and closes as
//! lines of their own; with `--multiplayer` each binary message decoded by the flow's library
//! tracker (`multiplayer.rs`) and printed as `gdvariant multiplayer` prints it
//! (`describe.rs`); protocol errors on standard error.

use gdvariant_pcap::{WebSocket, WsEvent};
use serde_json::json;

use super::multiplayer::Multiplayer;
use crate::Format;
use crate::failure::{self, Failure};
use crate::multiplayer::{exact_json, values};
use crate::output::Out;

fn head(ws: &WebSocket<'_>) -> String {
    format!("{}\t{}\t{}", ws.time, ws.flow, ws.direction.name())
}

/// Prints one WebSocket item (`list`: values are listed, not only counted).
pub fn item(
    ws: &WebSocket<'_>,
    name: &str,
    format: Format,
    list: bool,
    multiplayer: Option<&mut Multiplayer>,
    out: &mut Out,
) -> Result<(), Failure> {
    let json = format != Format::Text;
    let (kind, text, fields) = match &ws.event {
        WsEvent::Error(error) => {
            failure::error_line(format!(
                "{name}: {} {}: WebSocket stream byte {}: {error}; this direction is not read further",
                ws.flow,
                ws.direction.name(),
                ws.offset
            ));
            return Ok(());
        }
        WsEvent::Binary(bytes) => {
            return match multiplayer {
                Some(mp) => message(ws, bytes, format, list, mp, out),
                None => Ok(()),
            };
        }
        WsEvent::Upgrade(line) => ("upgrade", line.clone(), json!({"line": line})),
        WsEvent::Text(text) => ("text", text.clone(), json!({"text": text})),
        WsEvent::Ping(len) => ("ping", format!("{len} bytes"), json!({"bytes": len})),
        WsEvent::Pong(len) => ("pong", format!("{len} bytes"), json!({"bytes": len})),
        WsEvent::Close { code, reason } => {
            let code_text = code.map_or_else(|| "no code".to_owned(), |c| c.to_string());
            ("close", format!("{code_text} {reason}"), json!({"code": code, "reason": reason}))
        }
        _ => return Ok(()),
    };
    if !list {
        return Ok(());
    }
    if json {
        let mut line = json!({
            "time": ws.time.to_string(), "flow": ws.flow.to_string(),
            "direction": ws.direction.name(), "websocket": kind,
        });
        if let (Some(line), Some(fields)) = (line.as_object_mut(), fields.as_object()) {
            line.extend(fields.clone());
        }
        out.line(&line.to_string())
    } else {
        let text = text.replace('\n', "\\n");
        out.line(&format!("{}\twebsocket {kind}: {}", head(ws), text.trim_end()))
    }
}

/// One binary message through the flow's tracker (counted), printed as `gdvariant
/// multiplayer` does when `list`.
fn message(
    ws: &WebSocket<'_>,
    bytes: &[u8],
    format: Format,
    list: bool,
    mp: &mut Multiplayer,
    out: &mut Out,
) -> Result<(), Failure> {
    if !list {
        mp.count_websocket(ws, bytes);
        return Ok(());
    }
    let decoded = mp.websocket(ws, bytes);
    let hex = values::hex(bytes);
    let line = match (decoded, format) {
        (Ok((from, to, described)), Format::Text) => {
            format!("{}\t{from} -> {to}\t{}", head(ws), described.text)
        }
        (Ok((from, to, described)), _) => exact_json::to_line(&json!({
            "time": ws.time.to_string(), "flow": ws.flow.to_string(),
            "direction": ws.direction.name(), "from": from, "to": to, "hex": hex,
            "message": described.json,
        })),
        (Err((reason, detail)), Format::Text) => {
            format!("{}\trefused ({reason}): {detail}", head(ws))
        }
        (Err((reason, detail)), _) => json!({
            "time": ws.time.to_string(), "flow": ws.flow.to_string(),
            "direction": ws.direction.name(), "hex": hex, "refused": reason, "detail": detail,
        })
        .to_string(),
    };
    out.line(&line)
}
