//! The rules file of `gdvariant multiplayer --rules` and `gdvariant proxy --multiplayer --rules`:
//! the project's Godot 4 RPC method lists, and which calls the proxy lets through.
//!
//! ```text
//! # Godot 4 method lists (ids on the wire index them): a node's @rpc functions (its script's,
//! # inherited ones included), the methods set up with Node.rpc_config, a script's list for any
//! # node whose checksum matches
//! methods World/Player = jump take_damage say
//! native World/Player = plain
//! script = move shoot
//! # what passes, per client: NODE MEMBER [N/s]; MEMBER a method (or a Godot 3 rset
//! # property), `*` any; NODE a path pattern (`*` one name, `Name*` a prefix, `**` the rest)
//! allow World/Player jump
//! allow World/Player say 2/s
//! allow World/Players/* * 30/s
//! allow-raw 10/s
//! # what clients may replicate (Godot 4, with --project to name the properties): a SYNC or
//! # DELTA_SYNC synchronizer's node (a spawned node: its name) and each property it carries; a
//! # SPAWN's spawner and scene
//! allow-sync World/Player position
//! allow-sync Hero* * 60/s
//! allow-spawn World/Spawner res://bullet.tscn
//! ```
//!
//! With `--project DIR` the project's lists come after the file's (a node a `methods` or
//! `native` pattern matches keeps the file's list), and a `methods`/`native` key that matches
//! no node of the project or of the traffic is a warning (`project.rs`).
//!
//! With at least one `allow` or `allow-raw` line, the proxy drops every call that no line
//! allows, every call it cannot name (an unknown cache id, a method id no verified list names, a
//! node path not spelled as Godot spells it), and RAW packets unless `allow-raw` is given.
//! With at least one `allow-sync` line, a client's SYNC and DELTA_SYNC pass only when every
//! property of every synchronizer they carry is allowed (properties the proxy cannot name, as
//! without `--project`, are not); with at least one `allow-spawn` line, a client's SPAWN passes
//! only when a line allows its spawner and scene. Without such lines both pass, as before.

use std::sync::Arc;

use gdvariant_multiplayer::session::{MethodList, PathPattern, RpcMethods};

use crate::failure::Failure;

/// One `allow` line.
#[derive(Debug)]
pub struct Allow {
    /// The node pattern.
    pub node: PathPattern,
    /// The method or property; `None` for `*`.
    pub member: Option<String>,
    /// Calls per second per client.
    pub rate: Option<u32>,
    /// The line as written, for the logs.
    pub text: String,
}

/// A parsed rules file.
#[derive(Debug, Default)]
pub struct Rules {
    /// The method lists.
    pub methods: Arc<RpcMethods>,
    /// The `allow` lines, in order.
    pub allow: Vec<Allow>,
    /// `allow-raw`: RAW packets pass (`Some(rate)`; `Some(None)` without a limit).
    pub raw: Option<Option<u32>>,
    /// The `allow-sync` lines (member: a property), in order.
    pub allow_sync: Vec<Allow>,
    /// The `allow-spawn` lines (member: a scene path), in order.
    pub allow_spawn: Vec<Allow>,
    /// The node keys of the `methods` and `native` lines, in order, each once.
    pub keys: Vec<String>,
}

impl Rules {
    /// Whether the file asks for calls and RAW packets to be filtered (an `allow` or
    /// `allow-raw` line; `allow-sync` and `allow-spawn` lines filter only what they name).
    pub fn filters(&self) -> bool {
        !self.allow.is_empty() || self.raw.is_some()
    }

    /// The first `allow` line that lets `member` on `node` through, with its index.
    pub fn allowing(&self, node: &str, member: &str) -> Option<(usize, &Allow)> {
        first_allowing(&self.allow, node, member)
    }

    /// The first `allow-sync` line that lets `property` of the synchronizer on `node` through.
    pub fn allowing_sync(&self, node: &str, property: &str) -> Option<(usize, &Allow)> {
        first_allowing(&self.allow_sync, node, property)
    }

    /// The first `allow-spawn` line that lets `spawner` spawn `scene`.
    pub fn allowing_spawn(&self, spawner: &str, scene: &str) -> Option<(usize, &Allow)> {
        first_allowing(&self.allow_spawn, spawner, scene)
    }

    /// Reads the rules file at `path`.
    pub fn read(path: &std::path::Path) -> Result<Self, Failure> {
        let name = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|e| Failure::input(&name, e))?;
        Self::parse(&text).map_err(|e| Failure::Usage(format!("{name}: {e}")))
    }

    /// Parses a rules file's text.
    pub fn parse(text: &str) -> Result<Self, String> {
        let mut methods = RpcMethods::new();
        let mut natives: Vec<(String, Vec<String>)> = Vec::new();
        let mut scripts: Vec<(String, Vec<String>)> = Vec::new();
        let mut rules = Rules::default();
        for (number, line) in text.lines().enumerate() {
            let line = line.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let at = |what: &str| format!("line {}: {what}: {line}", number.saturating_add(1));
            let (keyword, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
            let rest = rest.trim();
            match keyword {
                "methods" | "native" => {
                    let (node, names) =
                        rest.split_once('=').ok_or_else(|| at("expected NODE = NAMES"))?;
                    let node = node.trim().to_string();
                    if node.is_empty() {
                        return Err(at("missing the node"));
                    }
                    let names: Vec<String> = names.split_whitespace().map(String::from).collect();
                    let list = if keyword == "methods" { &mut scripts } else { &mut natives };
                    match list.iter_mut().find(|(n, _)| *n == node) {
                        Some((_, existing)) => existing.extend(names),
                        None => list.push((node, names)),
                    }
                }
                "script" | "script=" => {
                    let names = line
                        .split_once('=')
                        .map(|(_, n)| n)
                        .ok_or_else(|| at("expected script = NAMES"))?;
                    methods.script(MethodList::script(names.split_whitespace()));
                }
                "allow" | "allow-sync" | "allow-spawn" => {
                    let parts: Vec<&str> = rest.split_whitespace().collect();
                    let (node, member, rate) = match parts.as_slice() {
                        [node, member] => (node, member, None),
                        [node, member, rate] => (
                            node,
                            member,
                            Some(
                                parse_rate(rate)
                                    .ok_or_else(|| at("expected a rate such as 10/s"))?,
                            ),
                        ),
                        _ => return Err(at(&format!("expected {keyword} NODE MEMBER [N/s]"))),
                    };
                    let allow = Allow {
                        node: PathPattern::new(node),
                        member: (*member != "*").then(|| member.to_string()),
                        rate,
                        text: line.to_string(),
                    };
                    match keyword {
                        "allow" => rules.allow.push(allow),
                        "allow-sync" => rules.allow_sync.push(allow),
                        _ => rules.allow_spawn.push(allow),
                    }
                }
                "allow-raw" => {
                    let rate = match rest {
                        "" => None,
                        rate => Some(
                            parse_rate(rate).ok_or_else(|| at("expected a rate such as 10/s"))?,
                        ),
                    };
                    rules.raw = Some(rate);
                }
                _ => return Err(at("unknown rule")),
            }
        }
        for (node, _) in scripts.iter().chain(&natives) {
            if !rules.keys.contains(node) {
                rules.keys.push(node.clone());
            }
        }
        // A node's list holds both kinds: pair them by node.
        for (node, script) in &scripts {
            let native = natives.iter().find(|(n, _)| n == node).map(|(_, names)| names.clone());
            methods.node(node, MethodList::new(native.unwrap_or_default(), script.clone()));
        }
        for (node, native) in natives.iter().filter(|(n, _)| !scripts.iter().any(|(s, _)| s == n)) {
            methods.node(node, MethodList::new(native.clone(), Vec::<String>::new()));
        }
        rules.methods = Arc::new(methods);
        Ok(rules)
    }
}

/// The first of `lines` that lets `member` of `node` through, with its index.
fn first_allowing<'a>(lines: &'a [Allow], node: &str, member: &str) -> Option<(usize, &'a Allow)> {
    lines.iter().enumerate().find(|(_, rule)| {
        rule.node.matches(node) && rule.member.as_deref().is_none_or(|m| m == member)
    })
}

/// `N/s`.
fn parse_rate(text: &str) -> Option<u32> {
    text.strip_suffix("/s")?.parse().ok().filter(|&n| n > 0)
}
