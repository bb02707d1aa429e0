//! Per-call statistics: how many calls of each `node::method` and how many bytes they took.

use std::collections::BTreeMap;

use serde_json::{Value, json};

/// Distinct keys kept; beyond, calls count under `(other)` (a peer choosing names cannot grow
/// the table without bound).
const MAX_KEYS: usize = 4096;

/// Calls and bytes per `node::method`, and per refusal reason.
#[derive(Debug, Default)]
pub struct Stats {
    calls: BTreeMap<String, (u64, u64)>,
    commands: BTreeMap<String, (u64, u64)>,
    refused: BTreeMap<&'static str, u64>,
}

impl Stats {
    /// Counts a call of `key` in a packet of `bytes` bytes.
    pub fn call(&mut self, key: String, bytes: usize) {
        let key = if self.calls.len() >= MAX_KEYS && !self.calls.contains_key(&key) {
            "(other)".to_string()
        } else {
            key
        };
        let entry = self.calls.entry(key).or_default();
        entry.0 = entry.0.saturating_add(1);
        entry.1 = entry.1.saturating_add(bytes as u64);
    }

    /// Counts a packet of `command`.
    pub fn command(&mut self, command: &str, bytes: usize) {
        let entry = self.commands.entry(command.to_string()).or_default();
        entry.0 = entry.0.saturating_add(1);
        entry.1 = entry.1.saturating_add(bytes as u64);
    }

    /// Counts a refused message.
    pub fn refused(&mut self, reason: &'static str) {
        let count = self.refused.entry(reason).or_default();
        *count = count.saturating_add(1);
    }

    /// The calls, most frequent first.
    fn sorted(&self) -> Vec<(&String, &(u64, u64))> {
        let mut calls: Vec<_> = self.calls.iter().collect();
        calls.sort_by(|a, b| b.1.0.cmp(&a.1.0).then(a.0.cmp(b.0)));
        calls
    }

    /// The statistics as lines of text: one per call key, then per command and refusal.
    pub fn lines(&self) -> Vec<String> {
        let mut lines = vec!["calls\tbytes\tnode::method".to_string()];
        for (key, (calls, bytes)) in self.sorted() {
            lines.push(format!("{calls}\t{bytes}\t{key}"));
        }
        for (command, (count, bytes)) in &self.commands {
            lines.push(format!("{count}\t{bytes}\t({command})"));
        }
        for (reason, count) in &self.refused {
            lines.push(format!("{count}\t-\t(refused: {reason})"));
        }
        lines
    }

    /// The calls as a JSON array, most frequent first.
    pub fn calls_json(&self) -> Value {
        Value::Array(
            self.sorted()
                .into_iter()
                .map(|(key, (calls, bytes))| json!({"call": key, "count": calls, "bytes": bytes}))
                .collect(),
        )
    }

    /// The statistics as one JSON object.
    pub fn json(&self) -> Value {
        let calls = self.calls_json();
        let commands: serde_json::Map<String, Value> = self
            .commands
            .iter()
            .map(|(c, (n, b))| (c.clone(), json!({"count": n, "bytes": b})))
            .collect();
        json!({"stats": {"calls": calls, "commands": commands, "refused": self.refused}})
    }
}
