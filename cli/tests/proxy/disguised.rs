//! Disguised commands against the filters: the example relays (which drop a client's
//! `{"cmd": "shutdown_server"}`) and `gdvariant proxy --drop-if cmd=shutdown_server`, on loopback
//! between a real client and a real upstream server. Each frame spells the command, or its key,
//! another way; a frame must be dropped exactly when Godot reads it as the command. What Godot
//! reads is the engines' own answer (`corpus/probes/README.md` section A: one leading BOM is
//! skipped and the text ends at the first NUL in both engines; a Godot 4 StringName follows the
//! String rules; `corpus/probes/strings`: Godot 3.2.3 reads `E0 81 xx` as the character `xx & 0x3F
//! | 0x40`, and a repeated key keeps its last value).

use std::collections::BTreeSet;
use std::io::Write;
use std::net::Shutdown;

use gdvariant::Options;
use gdvariant::framing::{self, LengthPrefix};

use crate::support::*;

/// A String (`4`) or, in Godot 4, a StringName (`21`), holding these bytes.
#[derive(Clone, Copy)]
struct Text(u32, &'static [u8]);

/// A String.
const fn s(bytes: &'static [u8]) -> Text {
    Text(4, bytes)
}

/// A Godot 4 StringName.
const fn name(bytes: &'static [u8]) -> Text {
    Text(21, bytes)
}

/// `cmd` with its `c` spelled with the overlong form Godot 3.2.3 reads as `c`.
const OVERLONG_CMD: &[u8] = b"\xE0\x81\xA3md";
/// `shutdown_server` with its `s` spelled so.
const OVERLONG_SHUTDOWN: &[u8] = b"\xE0\x81\xB3hutdown_server";
/// With its last `r` spelled so.
const OVERLONG_LAST: &[u8] = b"shutdown_serve\xE0\x81\xB2";
const SHUTDOWN: &[u8] = b"shutdown_server";

/// One frame: its entries (besides its `id`), and whether Godot reads its `cmd` as
/// `"shutdown_server"`.
struct Case {
    what: &'static str,
    entries: Vec<(Text, Text)>,
    forbidden: bool,
}

fn case(what: &'static str, entries: &[(Text, Text)], forbidden: bool) -> Case {
    Case { what, entries: entries.to_vec(), forbidden }
}

fn godot3_cases() -> Vec<Case> {
    let cmd = s(b"cmd");
    vec![
        case("plain", &[(cmd, s(SHUTDOWN))], true),
        case("overlong s in the value", &[(cmd, s(OVERLONG_SHUTDOWN))], true),
        case("overlong r at the end of the value", &[(cmd, s(OVERLONG_LAST))], true),
        case("overlong c in the key", &[(s(OVERLONG_CMD), s(SHUTDOWN))], true),
        case("overlong key and value", &[(s(OVERLONG_CMD), s(OVERLONG_SHUTDOWN))], true),
        case("repeated key, the last forbidden", &[(cmd, s(b"ping")), (cmd, s(SHUTDOWN))], true),
        case(
            "repeated key spelled two ways, the last forbidden",
            &[(cmd, s(b"ping")), (s(OVERLONG_CMD), s(OVERLONG_SHUTDOWN))],
            true,
        ),
        case("repeated key, the first forbidden", &[(cmd, s(SHUTDOWN)), (cmd, s(b"ping"))], false),
        case(
            "repeated key spelled two ways, the first forbidden",
            &[(s(OVERLONG_CMD), s(OVERLONG_SHUTDOWN)), (cmd, s(b"ping"))],
            false,
        ),
        case("NUL then junk after the text", &[(cmd, s(b"shutdown_server\0junk"))], true),
        case("NUL then junk after the key", &[(s(b"cmd\0x"), s(SHUTDOWN))], true),
        case("a BOM before the text", &[(cmd, s(b"\xEF\xBB\xBFshutdown_server"))], true),
        case(
            "two BOMs: the text starts with U+FEFF",
            &[(cmd, s(b"\xEF\xBB\xBF\xEF\xBB\xBFshutdown_server"))],
            false,
        ),
        case("NUL inside the text", &[(cmd, s(b"shutdown\0_server"))], false),
        case("another command", &[(cmd, s(b"ping"))], false),
        case("a prefix", &[(cmd, s(b"shutdown_serve"))], false),
        case("another key", &[(s(b"cmd2"), s(SHUTDOWN))], false),
    ]
}

fn godot4_cases() -> Vec<Case> {
    let cmd = s(b"cmd");
    vec![
        case("plain", &[(cmd, s(SHUTDOWN))], true),
        case("StringName value", &[(cmd, name(SHUTDOWN))], true),
        case("StringName key", &[(name(b"cmd"), s(SHUTDOWN))], true),
        case("StringName key and value", &[(name(b"cmd"), name(SHUTDOWN))], true),
        case("NUL then junk after the text", &[(cmd, s(b"shutdown_server\0junk"))], true),
        case("NUL then junk after a StringName", &[(cmd, name(b"shutdown_server\0junk"))], true),
        case("a BOM before the text", &[(cmd, s(b"\xEF\xBB\xBFshutdown_server"))], true),
        case(
            "repeated key, String then StringName, the last forbidden",
            &[(cmd, s(b"ping")), (name(b"cmd"), name(SHUTDOWN))],
            true,
        ),
        case(
            "repeated key, the first forbidden",
            &[(name(b"cmd"), s(SHUTDOWN)), (cmd, name(b"ping"))],
            false,
        ),
        case(
            "NUL after the key, repeated",
            &[(cmd, s(b"ping")), (s(b"cmd\0x"), s(SHUTDOWN))],
            true,
        ),
        case("another command", &[(cmd, name(b"ping"))], false),
        case("a prefix", &[(cmd, s(b"shutdown_serve"))], false),
        case("NUL inside the text", &[(cmd, s(b"shutdown\0_server"))], false),
    ]
}

/// A string value: its type id, length, bytes, padding.
fn text_value(out: &mut Vec<u8>, Text(id, bytes): Text) {
    out.extend(id.to_le_bytes());
    out.extend((bytes.len() as u32).to_le_bytes());
    out.extend(bytes);
    out.resize(out.len().next_multiple_of(4), 0);
}

/// The frame of case `id`: `{"id": id, entries...}` with a `StreamPeer.put_var` prefix.
fn case_frame(godot: u8, id: usize, entries: &[(Text, Text)]) -> Vec<u8> {
    let dictionary: u32 = if godot == 3 { 18 } else { 27 };
    let mut payload = [dictionary, entries.len() as u32 + 1].map(u32::to_le_bytes).concat();
    text_value(&mut payload, s(b"id"));
    payload.extend([2u32, id as u32].map(u32::to_le_bytes).concat());
    for &(key, value) in entries {
        text_value(&mut payload, key);
        text_value(&mut payload, value);
    }
    frame(&payload)
}

/// Sends every case through `relay` (to an echo server) and returns the ids that came back.
fn passed(relay: &Proxy, godot: u8, cases: &[Case]) -> BTreeSet<usize> {
    let sent: Vec<u8> =
        cases.iter().enumerate().flat_map(|(i, c)| case_frame(godot, i, &c.entries)).collect();
    let mut client = connect(relay.addr);
    client.write_all(&sent).unwrap();
    client.shutdown(Shutdown::Write).unwrap();
    let echoed = read_to_close(&mut client);
    let options = if godot == 3 { Options::godot3() } else { Options::godot4() };
    framing::frames(&echoed, LengthPrefix::stream_peer(false), options)
        .map(|f| {
            let value = f.unwrap().value();
            value.as_dictionary().unwrap().get_as::<i64>("id").unwrap().unwrap() as usize
        })
        .collect()
}

/// Asserts that exactly the cases Godot reads as the command were dropped.
fn assert_dropped_iff_forbidden(what: &str, cases: &[Case], passed: &BTreeSet<usize>) {
    for (i, case) in cases.iter().enumerate() {
        assert_eq!(
            !passed.contains(&i),
            case.forbidden,
            "{what}: case {i} ({}): dropped iff Godot reads it as the command",
            case.what
        );
    }
}

fn cases(godot: u8) -> Vec<Case> {
    if godot == 3 { godot3_cases() } else { godot4_cases() }
}

fn example_drops_exactly_the_command(example_name: &str) {
    let upstream = tcp_echo().to_string();
    let binary = example(example_name);
    for godot in [3u8, 4] {
        let version = godot.to_string();
        let relay =
            Proxy::start_binary(&binary, &[], &["--upstream", &upstream, "--godot", &version]);
        let cases = cases(godot);
        let passed = passed(&relay, godot, &cases);
        assert_dropped_iff_forbidden(&format!("{example_name} --godot {godot}"), &cases, &passed);
    }
}

#[test]
fn the_tokio_relay_drops_every_spelling_godot_reads_as_the_command() {
    example_drops_exactly_the_command("relay");
}

#[test]
fn the_threaded_relay_drops_every_spelling_godot_reads_as_the_command() {
    example_drops_exactly_the_command("relay_std");
}

#[test]
fn drop_if_drops_every_spelling_godot_reads_as_the_value() {
    let upstream = tcp_echo().to_string();
    for godot in [3u8, 4] {
        let version = godot.to_string();
        for option in ["--drop-if", "--drop-if-from-client"] {
            let proxy = Proxy::start(&[
                "--upstream",
                &upstream,
                "--godot",
                &version,
                option,
                "cmd=shutdown_server",
            ]);
            let cases = cases(godot);
            let passed = passed(&proxy, godot, &cases);
            assert_dropped_iff_forbidden(
                &format!("proxy {option} --godot {godot}"),
                &cases,
                &passed,
            );
            let (_, events) = proxy.stop();
            let forbidden = cases.iter().filter(|c| c.forbidden).count() as u64;
            assert_eq!(summary(&events)["drops"]["drop_if"], forbidden, "{events:?}");
            // Every drop is of a client's frame, named by its rule.
            for drop in events.iter().filter(|e| e["event"] == "drop") {
                assert_eq!(drop["direction"], "to_server", "{drop}");
                assert!(drop["detail"].as_str().unwrap().contains("cmd=shutdown_server"), "{drop}");
            }
        }
    }
}

#[test]
fn a_rule_for_one_direction_drops_that_way_only() {
    let upstream = tcp_echo().to_string();
    let frames = |godot: u8| -> Vec<u8> {
        [(s(b"cmd"), s(SHUTDOWN)), (s(b"cmd"), s(b"ping"))]
            .iter()
            .enumerate()
            .flat_map(|(i, &entry)| case_frame(godot, i, &[entry]))
            .collect()
    };
    // From the server only: the client's command reaches the (echo) server, whose copy is
    // dropped on its way back.
    let proxy =
        Proxy::start(&["--upstream", &upstream, "--drop-if-from-server", "cmd=shutdown_server"]);
    let mut client = connect(proxy.addr);
    client.write_all(&frames(4)).unwrap();
    client.shutdown(Shutdown::Write).unwrap();
    let ping = case_frame(4, 1, &[(s(b"cmd"), s(b"ping"))]);
    assert_eq!(read_to_close(&mut client), ping);
    let (_, events) = proxy.stop();
    let totals = summary(&events);
    assert_eq!(totals["forwarded"]["to_server"]["frames"], 2, "{events:?}");
    assert_eq!(totals["forwarded"]["to_client"]["frames"], 1, "{events:?}");
    let drops: Vec<_> = events.iter().filter(|e| e["event"] == "drop").collect();
    assert_eq!(drops.len(), 1, "{events:?}");
    assert_eq!(drops[0]["direction"], "to_client");
    assert_eq!(drops[0]["detail"], "--drop-if-from-server cmd=shutdown_server");

    // From the client only: dropped before the server sees it.
    let proxy =
        Proxy::start(&["--upstream", &upstream, "--drop-if-from-client", "cmd=shutdown_server"]);
    let mut client = connect(proxy.addr);
    client.write_all(&frames(4)).unwrap();
    client.shutdown(Shutdown::Write).unwrap();
    assert_eq!(read_to_close(&mut client), ping);
    let (_, events) = proxy.stop();
    let totals = summary(&events);
    assert_eq!(totals["forwarded"]["to_server"]["frames"], 1, "{events:?}");
    let drops: Vec<_> = events.iter().filter(|e| e["event"] == "drop").collect();
    assert_eq!(drops.len(), 1, "{events:?}");
    assert_eq!(drops[0]["direction"], "to_server");
}

#[test]
fn a_rule_that_cannot_follow_its_path_drops_the_frame() {
    let upstream = tcp_echo().to_string();
    let proxy = Proxy::start(&["--upstream", &upstream, "--drop-if", "cmd/0=shutdown_server"]);
    // {"id": 0, "cmd": PackedStringArray["shutdown_server"]}: the game's cmd[0] is the command,
    // which the path does not step into: dropped. {"id": 1, "cmd": 5}: an int holds nothing.
    // {"id": 2, "cmd": ["shutdown_server"]}: an array the path steps into: dropped.
    // {"id": 3, "cmd": ["ping"]}: passes.
    let mut packed = [34u32, 1, 15].map(u32::to_le_bytes).concat();
    packed.extend(SHUTDOWN);
    packed.push(0);
    let header = |count: u32, id: u32| {
        let mut payload = [27u32, count].map(u32::to_le_bytes).concat();
        text_value(&mut payload, s(b"id"));
        payload.extend([2u32, id].map(u32::to_le_bytes).concat());
        text_value(&mut payload, s(b"cmd"));
        payload
    };
    let mut sent = Vec::new();
    let mut first = header(2, 0);
    first.extend(&packed);
    sent.extend(frame(&first));
    let mut second = header(2, 1);
    second.extend([2u32, 5].map(u32::to_le_bytes).concat());
    sent.extend(frame(&second));
    for (id, text) in [(2, SHUTDOWN), (3, b"ping".as_slice())] {
        let mut payload = header(2, id);
        payload.extend([28u32, 1].map(u32::to_le_bytes).concat());
        text_value(&mut payload, s(text));
        sent.extend(frame(&payload));
    }
    let mut client = connect(proxy.addr);
    client.write_all(&sent).unwrap();
    client.shutdown(Shutdown::Write).unwrap();
    let echoed = read_to_close(&mut client);
    let ids: Vec<i64> =
        framing::frames(&echoed, LengthPrefix::stream_peer(false), Options::godot4())
            .map(|f| {
                f.unwrap().value().as_dictionary().unwrap().get_as::<i64>("id").unwrap().unwrap()
            })
            .collect();
    assert_eq!(ids, vec![1, 3]);
    let (_, events) = proxy.stop();
    let details: Vec<&str> = events
        .iter()
        .filter(|e| e["event"] == "drop")
        .map(|e| e["detail"].as_str().unwrap())
        .collect();
    assert_eq!(details.len(), 2, "{events:?}");
    assert!(details[0].contains("the path cannot be followed"), "{details:?}");
    assert_eq!(details[1], "cmd/0=shutdown_server");
}
