//! `multiplayer`: the multiplayer packet decoders, the transport readers and the session
//! trackers never panic, point every error inside the input, stay within a bounded amount of
//! work per byte, and agree with the encoders.
//!
//! The first byte selects what the rest is (bit 7: RPC arguments may hold full objects):
//!
//! * `0`: one Godot 4 packet. Decoded, every accessor and iterator walked (arguments, spawn
//!   state, sync elements and values, what a relay carries); when Godot accepts it whole, it is
//!   written again with the encoder from owned values, and that canonical form must decode to
//!   the same packet (command, ids, names, every value bit for bit) and be a fixed point of the
//!   encoder. (A sync whose bytes hold no element Godot reads, only trailing bytes, or an
//!   element without values, has no canonical form: the encoder refuses both, as Godot never
//!   sends them.)
//! * `1`: one Godot 3 packet, the same way (names compared as the game reads them).
//! * `2`: the transport readers (Godot 3 ENet on channels 0 and 1, Godot 3 WebSocket, Godot 4's
//!   peer-id message) and the capture reader; a Godot 3 payload they find is checked as in `1`.
//! * `3`: a session: the rest is split into packets (a length byte, then that many bytes; the
//!   length byte's low bit picks the direction), each decoded as Godot 4 and as Godot 3 and
//!   followed by a session with small limits; the entries never pass the limits, and every
//!   query answers.
//!
//! With bit 6 set, the selector's low bits pick what a guard reads besides packets:
//!
//! * `0x40`: a rules file (`rules::Rules::parse`): never panics; what parses is judged against
//!   the messages of `0x42`.
//! * `0x41`: a project's files (`project::Project`): the rest, split at its first NUL, is one
//!   script and one scene, read and indexed, every query answering.
//! * `0x42`: connection trackers (`track::Tracker`) for every framing of both versions, with
//!   small limits, fed the rest split into messages as in `3` (the length byte's low bit picks
//!   the direction, the next bit the ENet channel), each message read whole (arguments,
//!   replicas) and judged by fixed rules; entries never pass the limits.

use gdvariant::{EncodeOptions, Options, Variant, math::Precision};
use gdvariant_multiplayer::godot4::{self, Godot4Packet, NodeAddress, Sys, Value, write};
use gdvariant_multiplayer::session::{Limits, MethodList, Route, RpcMethods, Session3, Session4};
use gdvariant_multiplayer::transport::{enet3, websocket3, websocket4};
use gdvariant_multiplayer::{PacketError, capture, godot3};

/// Units of work allowed per input byte (decoding, validating, walking, re-encoding twice and
/// following a session each read a byte a bounded number of times).
pub const UNITS_PER_BYTE: u64 = 96;

/// Units allowed for any input.
pub const UNITS_BASE: u64 = 4096;

/// The target.
pub fn check(data: &[u8]) {
    let Some((&selector, rest)) = data.split_first() else { return };
    let allow = selector & 0x80 != 0;
    let (_, units) = gdvariant::work::measure(|| match (selector & 0x40 != 0, selector & 3) {
        (false, 0) => packet4(rest, allow),
        (false, 1) => packet3(rest, allow),
        (false, 2) => transports(rest, allow),
        (false, _) => session(rest, allow),
        (true, 0) => rules(rest),
        (true, 1) => project(rest),
        (true, _) => trackers(rest, allow, None),
    });
    let bound = UNITS_PER_BYTE * data.len() as u64 + UNITS_BASE;
    assert!(units <= bound, "{units} units of work on {} bytes (bound {bound})", data.len());
}

/// Panics unless `error` points inside `input` or at its end.
fn inside(error: &PacketError, input: &[u8], what: &str) {
    assert!(
        error.offset() <= input.len(),
        "{what}: offset {} past {} bytes: {error}",
        error.offset(),
        input.len()
    );
}

/// Runs every accessor of a Godot 4 packet; returns whether everything read.
fn walk4(packet: &Godot4Packet<'_>, data: &[u8]) -> bool {
    let mut ok = true;
    let mut note = |r: Result<(), PacketError>| {
        if let Err(e) = r {
            inside(&e, data, "walk4");
            ok = false;
        }
    };
    match packet {
        Godot4Packet::Rpc(rpc) => {
            let _ = (
                rpc.node(),
                rpc.node_width(),
                rpc.method_id(),
                rpc.method_width(),
                rpc.path_text(),
            );
            let mut count = 0;
            for argument in rpc.arguments() {
                note(argument.map(|a| {
                    let _ = a.value();
                    count += 1;
                }));
            }
            assert!(count <= rpc.argument_count());
        }
        Godot4Packet::SimplifyPath(s) => {
            assert_eq!(s.checksum().len(), 32);
            let _ = (s.id(), s.path().text_bytes(), s.unread_byte());
        }
        Godot4Packet::Spawn(spawn) => {
            assert!(spawn.sync_ids().len() <= data.len() / 4);
            let _ = spawn.sync_ids().count();
            let _ = (spawn.name().text_bytes(), spawn.argument().map(|a| a.value()));
            for value in spawn.state() {
                note(value.map(|_| ()));
            }
        }
        Godot4Packet::Sync(sync) => {
            for element in sync.elements() {
                match element {
                    Ok(e) => e.values().for_each(|v| note(v.map(|_| ()))),
                    Err(error) => note(Err(error)),
                }
            }
        }
        Godot4Packet::DeltaSync(delta) => {
            for element in delta.elements() {
                match element {
                    Ok(e) => {
                        assert!(e.indexes().count() == e.mask().count_ones() as usize);
                        e.values().for_each(|v| note(v.map(|_| ())));
                    }
                    Err(error) => note(Err(error)),
                }
            }
        }
        Godot4Packet::Sys(Sys::Relay(relay)) => {
            let inner = relay.packet().expect("a decoded relay's packet decodes");
            assert!(!matches!(inner, Godot4Packet::Sys(_)), "a relay inside a relay");
            ok &= walk4(&inner, data);
        }
        _ => {}
    }
    ok
}

/// A compressed value as an owned value.
fn owned(value: &Value<'_>, options: Options, encode: EncodeOptions) -> Variant {
    match *value {
        Value::Bool(b) => Variant::Bool(b),
        Value::Int { value, .. } => Variant::Int(value),
        Value::Bytes(bytes) => Variant::PackedByteArray(bytes.to_vec()),
        Value::Plain(element) => {
            let value =
                gdvariant::decode(element.raw_bytes(), options).expect("a validated value decodes");
            // The Variant encoder's own rewrites (a class-typed container without full objects
            // declares EncodedObjectAsID, a null object is Nil, reals round to the precision)
            // are the `reencode` target's: compare values as that encoder leaves them.
            gdvariant::encode(&value, encode)
                .ok()
                .and_then(|bytes| gdvariant::decode(&bytes, options.with_allow_objects(true)).ok())
                .unwrap_or(value)
        }
    }
}

/// Owned values of an iterator that validated.
fn all_owned<'a>(
    values: impl Iterator<Item = Result<Value<'a>, PacketError>>,
    options: Options,
    encode: EncodeOptions,
) -> Vec<Variant> {
    values.map(|v| owned(&v.expect("validated"), options, encode)).collect()
}

/// The text of a name, if it is standard UTF-8 and can be written back: a text that starts with
/// U+FEFF (after the byte order mark Godot strips) loses that character too when read again,
/// in Godot as here, so it has no canonical form.
fn text4(s: &gdvariant::view::GdStr<'_>) -> Option<String> {
    core::str::from_utf8(s.text_bytes())
        .ok()
        .filter(|t| !t.starts_with('\u{FEFF}'))
        .map(String::from)
}

/// A Godot 3 name's text, if it can be written back (as [`text4`]).
fn text3(s: &gdvariant::view::GdStr<'_>) -> Option<String> {
    s.to_text().ok().filter(|t| !t.starts_with('\u{FEFF}')).map(|t| t.into_owned())
}

/// What a Godot 4 packet means, for comparing two spellings of it.
#[derive(Debug)]
struct Meaning4 {
    head: String,
    values: Vec<Variant>,
}

/// The meaning of `packet`, and its canonical bytes (the encoder's), or `None` when a name is
/// not text (no `&str` can be written back).
fn canonical4(
    packet: &Godot4Packet<'_>,
    options: Options,
    encode: EncodeOptions,
) -> Option<(Meaning4, Vec<u8>)> {
    let mut out = Vec::new();
    let meaning = match packet {
        Godot4Packet::Rpc(rpc) => {
            let path = match rpc.node() {
                NodeAddress::Path { path, .. } => Some(text4(&path)?),
                NodeAddress::Cached(_) => None,
            };
            // The encoder picks the narrowest width for a cached id.
            let target = match (rpc.node(), &path) {
                (NodeAddress::Cached(id), _) => write::Target::Cached(id),
                (_, Some(path)) => write::Target::Path(path),
                _ => return None,
            };
            let node = match rpc.node() {
                NodeAddress::Cached(id) => format!("#{id}"),
                NodeAddress::Path { .. } => path.clone().unwrap_or_default(),
            };
            let mut values = all_owned(rpc.arguments(), options, encode);
            let args: Vec<write::Arg<'_>> = values.iter().map(write::Arg::Variant).collect();
            write::rpc(&mut out, target, rpc.method_id(), &args, encode).ok()?;
            // Godot's quirk: a lone empty PackedByteArray is written bare, so it arrives as no
            // argument at all.
            if matches!(values.as_slice(), [Variant::PackedByteArray(b)] if b.is_empty()) {
                values.clear();
            }
            Meaning4 { head: format!("rpc {node} {}", rpc.method_id()), values }
        }
        Godot4Packet::SimplifyPath(s) => {
            let path = text4(&s.path())?;
            let checksum: [u8; 32] = s.checksum().try_into().ok()?;
            write::simplify_path(&mut out, &checksum, s.id(), &path).ok()?;
            Meaning4 {
                head: format!("simplify {:?} {} {path}", s.checksum(), s.id()),
                values: vec![],
            }
        }
        Godot4Packet::ConfirmPath(c) => {
            write::confirm_path(&mut out, c.checksum_valid(), c.id()).ok()?;
            Meaning4 { head: format!("confirm {} {}", c.checksum_valid(), c.id()), values: vec![] }
        }
        Godot4Packet::Raw(payload) => {
            write::raw(&mut out, payload).ok()?;
            Meaning4 { head: format!("raw {payload:?}"), values: vec![] }
        }
        Godot4Packet::Spawn(spawn) => {
            let name = text4(&spawn.name())?;
            let argument = spawn.argument().map(|a| {
                owned(&a, options.with_allow_objects(false), encode.with_full_objects(false))
            });
            let state = all_owned(
                spawn.state(),
                options.with_allow_objects(false),
                encode.with_full_objects(false),
            );
            let sync_ids: Vec<u32> = spawn.sync_ids().collect();
            let state_args: Vec<write::Arg<'_>> = state.iter().map(write::Arg::Variant).collect();
            let fields = write::SpawnFields {
                scene: spawn.scene(),
                spawner: spawn.spawner(),
                net_id: spawn.net_id(),
                sync_ids: &sync_ids,
                name: &name,
                argument: argument.as_ref().map(write::Arg::Variant),
                state: &state_args,
            };
            write::spawn(&mut out, &fields, encode).ok()?;
            let mut values = state.clone();
            values.extend(argument.clone());
            Meaning4 {
                head: format!(
                    "spawn {} {} {} {sync_ids:?} {name} {}",
                    spawn.scene(),
                    spawn.spawner(),
                    spawn.net_id(),
                    argument.is_some()
                ),
                values,
            }
        }
        Godot4Packet::Despawn(d) => {
            write::despawn(&mut out, d.net_id()).ok()?;
            Meaning4 { head: format!("despawn {}", d.net_id()), values: vec![] }
        }
        Godot4Packet::Sync(sync) => {
            let elements: Vec<(u32, Vec<Variant>)> = sync
                .elements()
                .map(|e| {
                    e.map(|e| {
                        (
                            e.net_id(),
                            all_owned(
                                e.values(),
                                options.with_allow_objects(false),
                                encode.with_full_objects(false),
                            ),
                        )
                    })
                })
                .collect::<Result<_, _>>()
                .ok()?;
            let args: Vec<(u32, Vec<write::Arg<'_>>)> = elements
                .iter()
                .map(|(id, v)| (*id, v.iter().map(write::Arg::Variant).collect()))
                .collect();
            let refs: Vec<(u32, &[write::Arg<'_>])> =
                args.iter().map(|(id, a)| (*id, a.as_slice())).collect();
            write::sync(&mut out, sync.time(), &refs, encode).ok()?;
            let ids: Vec<u32> = elements.iter().map(|(id, _)| *id).collect();
            Meaning4 {
                head: format!("sync {} {ids:?}", sync.time()),
                values: elements.into_iter().flat_map(|(_, v)| v).collect(),
            }
        }
        Godot4Packet::DeltaSync(delta) => {
            let elements: Vec<(u32, u64, Vec<Variant>)> = delta
                .elements()
                .map(|e| {
                    e.map(|e| {
                        (
                            e.net_id(),
                            e.mask(),
                            all_owned(
                                e.values(),
                                options.with_allow_objects(false),
                                encode.with_full_objects(false),
                            ),
                        )
                    })
                })
                .collect::<Result<_, _>>()
                .ok()?;
            let args: Vec<(u32, u64, Vec<write::Arg<'_>>)> = elements
                .iter()
                .map(|(id, m, v)| (*id, *m, v.iter().map(write::Arg::Variant).collect()))
                .collect();
            let refs: Vec<(u32, u64, &[write::Arg<'_>])> =
                args.iter().map(|(id, m, a)| (*id, *m, a.as_slice())).collect();
            write::delta_sync(&mut out, &refs, encode).ok()?;
            let ids: Vec<(u32, u64)> = elements.iter().map(|(id, m, _)| (*id, *m)).collect();
            Meaning4 {
                head: format!("delta {ids:?}"),
                values: elements.into_iter().flat_map(|(_, _, v)| v).collect(),
            }
        }
        Godot4Packet::Sys(Sys::Auth(data)) => {
            write::auth(&mut out, data).ok()?;
            Meaning4 { head: format!("auth {data:?}"), values: vec![] }
        }
        Godot4Packet::Sys(Sys::AddPeer(p)) => {
            write::peer(&mut out, true, *p).ok()?;
            Meaning4 { head: format!("add {p}"), values: vec![] }
        }
        Godot4Packet::Sys(Sys::DelPeer(p)) => {
            write::peer(&mut out, false, *p).ok()?;
            Meaning4 { head: format!("del {p}"), values: vec![] }
        }
        Godot4Packet::Sys(Sys::Relay(relay)) => {
            let (inner, inner_bytes) = canonical4(&relay.packet().ok()?, options, encode)?;
            write::relay(&mut out, relay.peer(), &inner_bytes).ok()?;
            Meaning4 {
                head: format!("relay {} {}", relay.peer(), inner.head),
                values: inner.values,
            }
        }
        _ => return None,
    };
    Some((meaning, out))
}

/// Whether two meanings are the same, values bit for bit.
fn same4(a: &Meaning4, b: &Meaning4) -> bool {
    a.head == b.head
        && a.values.len() == b.values.len()
        && a.values.iter().zip(&b.values).all(|(x, y)| x.same(y))
}

/// One Godot 4 packet.
fn packet4(data: &[u8], allow: bool) {
    let options = Options::godot4().with_allow_objects(allow);
    let packet = match godot4::decode(data, options) {
        Ok(packet) => packet,
        Err(error) => return inside(&error, data, "decode4"),
    };
    let walked = walk4(&packet, data);
    let validated = packet.validate();
    if let Err(error) = &validated {
        inside(error, data, "validate4");
    }
    // What validates reads whole, part by part.
    if validated.is_ok() {
        assert!(walked, "validated, yet a part does not read");
    }
    if validated.is_err() {
        return;
    }
    // Single precision, as the official builds write reals; double precision when the packet
    // carries f64 reals (a double-precision build's), which single precision would round.
    let single = EncodeOptions::godot4().with_full_objects(allow);
    for (round, encode) in
        [single, single.with_precision(Precision::Double)].into_iter().enumerate()
    {
        let Some((meaning, canonical)) = canonical4(&packet, options, encode) else { return };
        let again = godot4::decode(&canonical, options).expect("the encoder's packet decodes");
        again.validate().expect("the encoder's packet validates");
        let (meaning2, canonical2) =
            canonical4(&again, options, encode).expect("the encoder's packet re-encodes");
        assert_eq!(canonical, canonical2, "the encoder is not a fixed point");
        if same4(&meaning, &meaning2) {
            return;
        }
        assert!(round == 0, "{meaning:?} became {meaning2:?}");
    }
}

/// One Godot 3 packet.
fn packet3(data: &[u8], allow: bool) {
    let options = Options::godot3().with_allow_objects(allow);
    let packet = match godot3::decode(data, options) {
        Ok(packet) => packet,
        Err(error) => return inside(&error, data, "decode3"),
    };
    let validated = packet.validate();
    if let Err(error) = &validated {
        inside(error, data, "validate3");
        return;
    }
    use godot3::write as w3;
    let path_of = |node: godot3::NodeAddress<'_>| -> Option<(Option<u32>, Option<String>)> {
        match node {
            godot3::NodeAddress::Cached(id) => Some((Some(id), None)),
            godot3::NodeAddress::Path { path, .. } => Some((None, Some(text3(&path)?))),
        }
    };
    fn target(t: &(Option<u32>, Option<String>)) -> w3::Target<'_> {
        match t {
            (Some(id), _) => w3::Target::Cached(*id),
            (_, path) => w3::Target::Path(path.as_deref().unwrap_or("")),
        }
    }
    let mut out = Vec::new();
    let (head, values) = match packet {
        godot3::Godot3Packet::Call(call) => {
            let Some(t) = path_of(call.node()) else { return };
            let Some(method) = text3(&call.method()) else { return };
            let values: Vec<Variant> = call
                .arguments()
                .map(|a| {
                    gdvariant::decode(a.expect("validated").raw_bytes(), options).expect("decodes")
                })
                .collect();
            let args: Vec<w3::Arg<'_>> = values.iter().map(w3::Arg::Variant).collect();
            w3::call(
                &mut out,
                target(&t),
                &method,
                &args,
                EncodeOptions::godot3().with_full_objects(allow),
            )
            .expect("writes");
            (format!("call {t:?} {method}"), values)
        }
        godot3::Godot3Packet::Set(set) => {
            let Some(t) = path_of(set.node()) else { return };
            let Some(property) = text3(&set.property()) else { return };
            let value = gdvariant::decode(set.value().expect("validated").raw_bytes(), options)
                .expect("decodes");
            w3::set(
                &mut out,
                target(&t),
                &property,
                &w3::Arg::Variant(&value),
                EncodeOptions::godot3().with_full_objects(allow),
            )
            .expect("writes");
            (format!("set {t:?} {property}"), vec![value])
        }
        godot3::Godot3Packet::SimplifyPath { id, path } => {
            let Some(path) = text3(&path) else { return };
            w3::simplify_path(&mut out, id, &path).expect("writes");
            (format!("simplify {id} {path}"), vec![])
        }
        godot3::Godot3Packet::ConfirmPath { path } => {
            let Some(path) = text3(&path) else { return };
            w3::confirm_path(&mut out, &path).expect("writes");
            (format!("confirm {path}"), vec![])
        }
        godot3::Godot3Packet::Raw(payload) => {
            w3::raw(&mut out, payload).expect("writes");
            (format!("raw {payload:?}"), vec![])
        }
        _ => return,
    };
    // A path or name holding a NUL is cut there when written: the decoder reads the same text.
    let again = godot3::decode(&out, options).expect("the encoder's packet decodes");
    again.validate().expect("the encoder's packet validates");
    let head2 = match again {
        godot3::Godot3Packet::Call(call) => format!(
            "call {:?} {}",
            path_of(call.node()).expect("text"),
            call.method().to_text().expect("text")
        ),
        godot3::Godot3Packet::Set(set) => format!(
            "set {:?} {}",
            path_of(set.node()).expect("text"),
            set.property().to_text().expect("text")
        ),
        godot3::Godot3Packet::SimplifyPath { id, path } => {
            format!("simplify {id} {}", path.to_text().expect("text"))
        }
        godot3::Godot3Packet::ConfirmPath { path } => {
            format!("confirm {}", path.to_text().expect("text"))
        }
        godot3::Godot3Packet::Raw(payload) => format!("raw {payload:?}"),
        _ => String::new(),
    };
    assert_eq!(head, head2);
    let values2: Vec<Variant> = match again {
        godot3::Godot3Packet::Call(call) => call
            .arguments()
            .map(|a| gdvariant::decode(a.expect("ok").raw_bytes(), options).expect("decodes"))
            .collect(),
        godot3::Godot3Packet::Set(set) => {
            vec![gdvariant::decode(set.value().expect("ok").raw_bytes(), options).expect("decodes")]
        }
        _ => vec![],
    };
    // Compared as the Variant encoder leaves them (a null object is written as Nil).
    let normal = |v: &Variant| {
        let encode = EncodeOptions::godot3().with_full_objects(allow);
        gdvariant::encode(v, encode)
            .ok()
            .and_then(|bytes| gdvariant::decode(&bytes, options.with_allow_objects(true)).ok())
            .unwrap_or_else(|| v.clone())
    };
    assert!(
        values.len() == values2.len()
            && values.iter().zip(&values2).all(|(a, b)| normal(a).same(&normal(b)))
    );
}

/// The transport readers and the capture reader.
fn transports(data: &[u8], allow: bool) {
    for channel in [0, 1] {
        match enet3::decode(data, channel) {
            Ok(enet3::EnetPacket::Data { payload, .. }) => packet3(payload, allow),
            Ok(enet3::EnetPacket::System { .. }) => {}
            Err(error) => inside(&error, data, "enet3"),
        }
    }
    match websocket3::decode(data) {
        Ok(message) => {
            let _ = message.peer();
            if message.kind == websocket3::MessageType::Payload {
                packet3(message.payload, allow);
            }
        }
        Err(error) => inside(&error, data, "websocket3"),
    }
    match websocket4::peer_id(data) {
        Ok(id) => assert!(id >= 2 && data.len() == 4),
        Err(error) => inside(&error, data, "websocket4"),
    }
    if capture::header(data).is_ok() {
        for record in capture::records(data) {
            match record {
                Ok(record) => assert!(record.offset + record.bytes.len() <= data.len()),
                Err(error) => inside(&error, data, "capture"),
            }
        }
    }
}

/// Packets followed by sessions with small limits.
fn session(data: &[u8], allow: bool) {
    let limits = Limits { max_entries: 32, max_path: 48, max_bytes: 2048 };
    let mut methods = RpcMethods::new();
    methods.node("World/*", MethodList::new(["n"], ["a", "b", "c"]));
    methods.script(MethodList::script(["x", "y"]));
    let mut four = Session4::new(std::sync::Arc::new(methods), limits);
    let mut three = Session3::new(limits);
    let mut rest = data;
    while let Some((&len, tail)) = rest.split_first() {
        let len = usize::from(len >> 1).min(tail.len());
        let (packet, after) = tail.split_at(len);
        rest = after;
        let (sender, receiver) = if len & 1 == 0 { (7, 1) } else { (1, 7) };
        if let Ok(p) = godot4::decode(packet, Options::godot4().with_allow_objects(allow)) {
            let _ = four.observe(sender, receiver, &p);
            assert!(four.entries() <= limits.max_entries);
            if let Some((route, Godot4Packet::Rpc(rpc))) = Route::of(sender, receiver, &p) {
                let _ = four.rpc(route, &rpc);
            }
            if let Godot4Packet::Sync(sync) = p {
                for element in sync.elements().flatten() {
                    let _ = four.synchronizer(Route::direct(sender, receiver), element.net_id());
                }
            }
        }
        if let Ok(p) = godot3::decode(packet, Options::godot3().with_allow_objects(allow)) {
            let _ = three.observe(sender as u32, &p);
            assert!(three.entries() <= limits.max_entries);
            if let godot3::Godot3Packet::Call(call) = p {
                let _ = three.node(sender as u32, &call.node());
            }
        }
    }
}

/// The rules a tracker's messages are judged by in `trackers`.
const RULES: &str = "methods World/* = a b c\nnative World/* = n\nscript = x y\n\
    allow World/* a\nallow World/** * 3/s\nallow-raw 2/s\nallow-sync World/* p\n\
    allow-spawn World/* res://s.tscn 1/s\n";

/// A rules file: parsed without panicking; what parses judges the trackers' messages.
fn rules(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    if let Ok(rules) = gdvariant_multiplayer::rules::Rules::parse(&text) {
        let _ = rules.unmatched_keys(&["World/Player", ""]);
        let _ = (rules.filters(), rules.calls().len(), rules.raw(), rules.keys().len());
        // The file's own text as traffic, judged by what it says.
        trackers(data, false, Some(&rules));
    }
}

/// A project's files: one script and one scene, read and indexed.
fn project(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let (script, scene) = text.split_once('\0').unwrap_or((&text, ""));
    let mut project = gdvariant_multiplayer::project::Project::new();
    project.add_file("res://a.gd", script);
    project.add_file("res://main.tscn", scene);
    project.add_file("res://project.godot", "[application]\nrun/main_scene=\"res://main.tscn\"\n");
    let index = project.index();
    let paths: Vec<String> = index.node_paths().map(String::from).collect();
    for path in &paths {
        let _ = (index.node_methods(path), index.synchronizer(path));
    }
    let _ = index.spawn_scene(paths.first().map(String::as_str), 0, 1, 1);
    let mut methods = RpcMethods::new();
    index.add_methods(&mut methods);
}

/// Connection trackers of every framing, fed the messages in `data`, judged by `rules` (or
/// [`RULES`]).
fn trackers(data: &[u8], allow: bool, rules: Option<&gdvariant_multiplayer::rules::Rules>) {
    use gdvariant::Version;
    use gdvariant_multiplayer::rules::{Rates, Rules};
    use gdvariant_multiplayer::track::{Members, Tracker};
    use gdvariant_multiplayer::{Direction, Framing};
    let fixed;
    let rules = match rules {
        Some(rules) => rules,
        None => {
            fixed = Rules::parse(RULES).unwrap_or_default();
            &fixed
        }
    };
    let limits = Limits { max_entries: 32, max_path: 48, max_bytes: 2048 };
    let kinds = [
        (Version::Godot4, Framing::Packets),
        (Version::Godot4, Framing::WebSocket4),
        (Version::Godot3, Framing::Enet3),
        (Version::Godot3, Framing::WebSocket3),
        (Version::Godot3, Framing::Packets),
    ];
    for (version, framing) in kinds {
        let methods = std::sync::Arc::clone(rules.methods());
        let mut tracker =
            Tracker::new(version, framing, methods).with_allow_objects(allow).with_limits(limits);
        let mut rates = Rates::default();
        let mut rest = data;
        while let Some((&len, tail)) = rest.split_first() {
            let size = usize::from(len >> 2).min(tail.len());
            let (bytes, after) = tail.split_at(size);
            rest = after;
            let direction = if len & 1 == 0 { Direction::ToServer } else { Direction::ToClient };
            let channel = (len >> 1) & 1;
            let Ok(message) = tracker.message(direction, channel, bytes) else { continue };
            if let Some(call) = &message.call {
                assert!(call.arguments().all(|a| a.is_ok()), "a tracked call's arguments read");
                let _ = call.to_string();
            }
            for replica in message.replicas() {
                if let Some(members) = replica.members {
                    let _ = members.iter().count();
                    let _ = matches!(members, Members::Scene(_));
                }
            }
            let decision = rules.judge(&mut rates, &message);
            let _ = (decision.passes(), decision.reason(), decision.to_string());
            drop(message);
            assert!(tracker.entries() <= 2 * limits.max_entries);
        }
    }
}
