//! The operator's value rules: [`DropIf`] (drop a frame by a value inside it, in one direction
//! or both), compared as `--where` compares.

use gdvariant::VariantRef;

use crate::failure::Failure;
use crate::filter::Condition;
use gdvariant_relay::Direction;

/// `--drop-if PATH=VALUE` (both directions), `--drop-if-from-client` (what clients send) and
/// `--drop-if-from-server` (what the upstream server sends): a frame whose value at `PATH`
/// equals `VALUE` (`PATH!=VALUE`: differs or is missing) is dropped, compared as `--where`
/// compares ([`crate::filter`]). A frame the path cannot be followed in, where the game might
/// still read something, is dropped too (fail closed).
#[derive(Debug)]
pub struct DropIf {
    /// The rule as given, with its option, for the logs.
    pub text: String,
    condition: Condition,
    /// Only frames going this way; `None`: both.
    direction: Option<Direction>,
}

impl DropIf {
    /// Parses a rule given to `--drop-if` (`direction` `None`), `--drop-if-from-client`
    /// (`ToServer`) or `--drop-if-from-server` (`ToClient`).
    pub fn parse(rule: &str, direction: Option<Direction>) -> Result<Self, Failure> {
        let option = match direction {
            None => "--drop-if",
            Some(Direction::ToServer) => "--drop-if-from-client",
            Some(Direction::ToClient) => "--drop-if-from-server",
        };
        let condition = Condition::parse_rule(rule, option)?;
        let text = match direction {
            None => rule.to_owned(),
            Some(_) => format!("{option} {rule}"),
        };
        Ok(DropIf { text, condition, direction })
    }

    /// Why `value`, going `direction`, is dropped by this rule: `None` when it is not (another
    /// direction, or the value does not meet the condition). A value the path cannot be followed
    /// in is dropped (fail closed; see [`Condition::holds_or_unreadable`]). O(bytes of the value
    /// x steps of the path).
    pub fn refuses(&self, direction: Direction, value: VariantRef<'_>) -> Option<String> {
        if self.direction.is_some_and(|only| only != direction) {
            return None;
        }
        match self.condition.holds_or_unreadable(value) {
            Ok(true) => Some(self.text.clone()),
            Ok(false) => None,
            Err(error) => Some(format!("{} (the path cannot be followed: {error})", self.text)),
        }
    }
}

/// Why a value that Godot accepts, going `direction`, is still dropped: the first rule that
/// refuses it.
pub fn refusal(rules: &[DropIf], direction: Direction, value: VariantRef<'_>) -> Option<String> {
    rules.iter().find_map(|rule| rule.refuses(direction, value))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use bytes::Bytes;
    use gdvariant::Options;
    use gdvariant::net::Packet;

    /// A Godot 3 datagram holding `[element]`.
    fn one_element(element: &[u8]) -> Packet {
        let mut bytes = vec![19, 0, 0, 0, 1, 0, 0, 0];
        bytes.extend_from_slice(element);
        Packet::datagram(Bytes::from(bytes), Options::godot3()).unwrap()
    }

    #[test]
    fn drop_if_reads_its_value_as_where_does() {
        let nil = one_element(&[0, 0, 0, 0]);
        let yes = one_element(&[1, 0, 0, 0, 1, 0, 0, 0]);
        let five = one_element(&[2, 0, 0, 0, 5, 0, 0, 0]);
        let half = one_element(&[3, 0, 0, 0, 0, 0, 0x20, 0x40]); // 2.5
        let text = one_element(&[4, 0, 0, 0, 1, 0, 0, 0, b'5', 0, 0, 0]); // "5"
        let cases = [
            ("0=null", &nil, true),
            ("0=null", &five, false),
            ("0=true", &yes, true),
            ("0=5", &five, true),
            ("0=5.0", &five, true),
            ("0=5", &text, false),
            ("0=\"5\"", &text, true),
            ("0=\"5\"", &five, false),
            ("0=2.5", &half, true),
            ("0!=2.5", &half, false),
        ];
        for (rule, packet, drops) in cases {
            let drop_if = DropIf::parse(rule, None).unwrap();
            let value = packet.value();
            assert_eq!(drop_if.refuses(Direction::ToServer, value).is_some(), drops, "{rule}");
            let condition = Condition::parse(rule).unwrap();
            assert_eq!(condition.holds(packet.value()), drops, "--where {rule}");
        }
    }
}
