//! What a GDScript file says about RPCs: its base (`extends`), its `class_name`, its `@rpc`
//! functions with their annotation arguments, and the method names it configures with
//! `Node.rpc_config`. One pass over the text: a small tokenizer that knows comments and every
//! kind of string literal, so text inside them is never read as code. O(length).

use alloc::string::String;
use alloc::vec::Vec;

/// What a script extends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Extends {
    /// `extends "res://base.gd"` (a path as written, relative paths included).
    Path(String),
    /// `extends Name`: a `class_name` of the project, or an engine class (`Node`).
    Class(String),
}

/// One `@rpc` function.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RpcFunction {
    /// The function's name.
    pub name: String,
    /// The annotation's arguments as written (`"any_peer"`, `"unreliable"`, `2`), literals
    /// unquoted.
    pub arguments: Vec<String>,
}

/// What one GDScript file says about RPCs.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ScriptInfo {
    /// `class_name`, if declared.
    pub class_name: Option<String>,
    /// The base, if the script has an `extends` line.
    pub extends: Option<Extends>,
    /// The top-level functions annotated `@rpc`, in file order (inner classes' functions are
    /// theirs, not the script's).
    pub rpc: Vec<RpcFunction>,
    /// Names given to `rpc_config("name", ...)` or `self.rpc_config(...)` with a literal name:
    /// methods configured on the script's own node.
    pub self_config: Vec<String>,
    /// Names given to `other.rpc_config("name", ...)` with a literal name: methods configured
    /// on a node the script reaches (which one, a reader of the text cannot tell).
    pub other_config: Vec<String>,
}

/// A token of GDScript, as far as this reader needs.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Token<'a> {
    /// A name or keyword.
    Ident(&'a str),
    /// `@name`.
    Annotation(&'a str),
    /// A string literal's content (of any kind: `"…"`, `'…'`, triple-quoted, `r"…"`, `&"…"`,
    /// `^"…"`), escapes resolved.
    Str(String),
    /// A number or any other literal text.
    Other(&'a str),
    /// One punctuation character.
    Punct(char),
}

/// A token, with the indentation of the line it starts on and whether it is the line's first.
#[derive(Clone, Debug)]
struct Lexed<'a> {
    token: Token<'a>,
    indent: usize,
    first: bool,
    /// The index of the line's first token.
    line: usize,
}

/// Reads a string literal's body starting after its opening quote(s) at `start`; returns the
/// content and the position after the closing quote(s). Unterminated: the rest (a one-quote
/// string ends at the line's end, as Godot's tokenizer refuses it there).
fn string_body(text: &str, start: usize, quote: char, triple: bool, raw: bool) -> (String, usize) {
    let mut out = String::new();
    let mut chars = text.get(start..).unwrap_or("").char_indices().peekable();
    while let Some((offset, c)) = chars.next() {
        let at = start.saturating_add(offset);
        if c == quote {
            if !triple {
                return (out, at.saturating_add(1));
            }
            let rest = text.get(at..).unwrap_or("");
            let q = quote.len_utf8();
            if rest.len() >= q.saturating_mul(3) && rest.chars().take(3).all(|x| x == quote) {
                return (out, at.saturating_add(q.saturating_mul(3)));
            }
            out.push(c);
            continue;
        }
        if c == '\n' && !triple {
            return (out, at);
        }
        if c == '\\' {
            let Some(&(_, next)) = chars.peek() else {
                out.push(c);
                continue;
            };
            chars.next();
            if raw {
                out.push('\\');
                out.push(next);
                continue;
            }
            match next {
                'n' => out.push('\n'),
                't' => out.push('\t'),
                'r' => out.push('\r'),
                'a' => out.push('\u{7}'),
                'b' => out.push('\u{8}'),
                'f' => out.push('\u{c}'),
                'v' => out.push('\u{b}'),
                'u' | 'U' => {
                    let digits: u8 = if next == 'u' { 4 } else { 6 };
                    let mut value: u32 = 0;
                    let mut read = 0u8;
                    while read < digits {
                        match chars.peek().and_then(|&(_, d)| d.to_digit(16)) {
                            Some(d) => {
                                value = value.saturating_mul(16).saturating_add(d);
                                chars.next();
                                read = read.saturating_add(1);
                            }
                            None => break,
                        }
                    }
                    out.push(char::from_u32(value).unwrap_or('\u{FFFD}'));
                }
                '\n' => {}
                other => out.push(other),
            }
            continue;
        }
        out.push(c);
    }
    (out, text.len())
}

/// Appends a token of the current line.
fn push<'a>(
    out: &mut Vec<Lexed<'a>>,
    token: Token<'a>,
    indent: usize,
    first: &mut bool,
    line: &mut usize,
) {
    if *first {
        *line = out.len();
    }
    out.push(Lexed { token, indent, first: *first, line: *line });
    *first = false;
}

/// The tokens of `text`. O(length).
fn tokens(text: &str) -> Vec<Lexed<'_>> {
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    let mut i = 0usize;
    let mut indent = 0usize;
    let mut line_start = true;
    let mut first = true;
    let mut line = 0usize;
    while let Some(&b) = bytes.get(i) {
        crate::work(1);
        if line_start {
            // The indentation of a new line.
            let mut j = i;
            while matches!(bytes.get(j), Some(b' ' | b'\t')) {
                j = j.saturating_add(1);
            }
            indent = j.saturating_sub(i);
            i = j;
            line_start = false;
            first = true;
            continue;
        }
        match b {
            b'\n' => {
                i = i.saturating_add(1);
                line_start = true;
            }
            b' ' | b'\t' | b'\r' => i = i.saturating_add(1),
            b'#' => {
                while bytes.get(i).is_some_and(|&c| c != b'\n') {
                    i = i.saturating_add(1);
                }
            }
            b'\\' if matches!(bytes.get(i.saturating_add(1)), Some(b'\n')) => {
                // A line continuation: the next line goes on this one.
                i = i.saturating_add(2);
            }
            b'"' | b'\'' | b'&' | b'^' | b'r'
                if {
                    let quote_at = if b == b'"' || b == b'\'' { i } else { i.saturating_add(1) };
                    matches!(bytes.get(quote_at), Some(b'"' | b'\''))
                        && (b != b'r'
                            || i == 0
                            || !bytes
                                .get(i.saturating_sub(1))
                                .is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_'))
                } =>
            {
                let quote_at = if b == b'"' || b == b'\'' { i } else { i.saturating_add(1) };
                let quote = if bytes.get(quote_at) == Some(&b'"') { '"' } else { '\'' };
                let q = quote as u8;
                let triple = bytes.get(quote_at.saturating_add(1)) == Some(&q)
                    && bytes.get(quote_at.saturating_add(2)) == Some(&q);
                let body = quote_at.saturating_add(if triple { 3 } else { 1 });
                let (content, end) = string_body(text, body, quote, triple, b == b'r');
                crate::work(end.saturating_sub(i) >> 4);
                push(&mut out, Token::Str(content), indent, &mut first, &mut line);
                i = end.max(i.saturating_add(1));
            }
            b'@' => {
                let start = i.saturating_add(1);
                let mut j = start;
                while bytes.get(j).is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_') {
                    j = j.saturating_add(1);
                }
                push(
                    &mut out,
                    Token::Annotation(text.get(start..j).unwrap_or("")),
                    indent,
                    &mut first,
                    &mut line,
                );
                i = j.max(i.saturating_add(1));
            }
            c if c.is_ascii_alphabetic() || c == b'_' || c >= 0x80 => {
                let start = i;
                let mut j = i;
                while bytes
                    .get(j)
                    .is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_' || *c >= 0x80)
                {
                    j = j.saturating_add(1);
                }
                push(
                    &mut out,
                    Token::Ident(text.get(start..j).unwrap_or("")),
                    indent,
                    &mut first,
                    &mut line,
                );
                i = j;
            }
            c if c.is_ascii_digit() => {
                let start = i;
                let mut j = i;
                while bytes
                    .get(j)
                    .is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_' || *c == b'.')
                {
                    j = j.saturating_add(1);
                }
                push(
                    &mut out,
                    Token::Other(text.get(start..j).unwrap_or("")),
                    indent,
                    &mut first,
                    &mut line,
                );
                i = j;
            }
            c => {
                push(&mut out, Token::Punct(char::from(c)), indent, &mut first, &mut line);
                i = i.saturating_add(1);
            }
        }
    }
    out
}

/// Reads what a GDScript file says about RPCs. Never fails: what it cannot read, it skips.
/// O(length of the text).
///
/// ```
/// use gdvariant_multiplayer::project::{Extends, parse_script};
///
/// let info = parse_script(
///     "extends \"res://base.gd\"\n\
///      \t# @rpc func commented(): pass\n\
///      @rpc(\"any_peer\", \"unreliable\")\n\
///      func jump():\n\
///      \tvar s = \"@rpc func not_code()\"\n\
///      func _ready():\n\
///      \trpc_config(&\"plain\", {\"rpc_mode\": 1})\n",
/// );
/// assert_eq!(info.extends, Some(Extends::Path("res://base.gd".into())));
/// assert_eq!(info.rpc.len(), 1);
/// assert_eq!((info.rpc[0].name.as_str(), info.rpc[0].arguments.join(" ")), ("jump", "any_peer unreliable".into()));
/// assert_eq!(info.self_config, ["plain"]);
/// ```
pub fn parse_script(text: &str) -> ScriptInfo {
    let tokens = tokens(text);
    let mut info = ScriptInfo::default();
    let mut pending_rpc: Option<Vec<String>> = None;
    let mut i = 0usize;
    let token = |k: usize| tokens.get(k).map(|t| &t.token);
    while let Some(lexed) = tokens.get(i) {
        crate::work(1);
        let top = lexed.indent == 0;
        match &lexed.token {
            Token::Ident("extends") if top && info.extends.is_none() => {
                // `class X extends Y` on the line is an inner class's base, not the script's.
                let inner = !lexed.first
                    && tokens.get(lexed.line).is_some_and(|t| t.token == Token::Ident("class"));
                if !inner {
                    info.extends = match token(i.saturating_add(1)) {
                        Some(Token::Str(path)) => Some(Extends::Path(path.clone())),
                        Some(Token::Ident(name)) => Some(Extends::Class((*name).into())),
                        _ => None,
                    };
                }
            }
            Token::Ident("class_name") if top && info.class_name.is_none() => {
                if let Some(Token::Ident(name)) = token(i.saturating_add(1)) {
                    info.class_name = Some((*name).into());
                }
            }
            Token::Annotation("rpc") => {
                let mut arguments = Vec::new();
                if token(i.saturating_add(1)) == Some(&Token::Punct('(')) {
                    let mut k = i.saturating_add(2);
                    let mut depth = 1usize;
                    while let Some(t) = token(k) {
                        match t {
                            Token::Punct('(') => depth = depth.saturating_add(1),
                            Token::Punct(')') => {
                                depth = depth.saturating_sub(1);
                                if depth == 0 {
                                    break;
                                }
                            }
                            Token::Str(s) if depth == 1 => arguments.push(s.clone()),
                            Token::Other(s) | Token::Ident(s) if depth == 1 => {
                                arguments.push((*s).into())
                            }
                            _ => {}
                        }
                        k = k.saturating_add(1);
                    }
                    i = k;
                }
                // Only an annotation at the script's top level applies to a script function.
                pending_rpc = top.then_some(arguments);
            }
            Token::Ident("func") => {
                if let Some(arguments) = pending_rpc.take() {
                    if let (true, Some(Token::Ident(name))) = (top, token(i.saturating_add(1))) {
                        info.rpc.push(RpcFunction { name: (*name).into(), arguments });
                    }
                }
            }
            Token::Ident("static") | Token::Annotation(_) => {}
            Token::Ident("rpc_config")
                if token(i.saturating_add(1)) == Some(&Token::Punct('(')) =>
            {
                if let Some(Token::Str(name)) = token(i.saturating_add(2)) {
                    let receiver = match (
                        i.checked_sub(1).and_then(token),
                        i.checked_sub(2).and_then(token),
                    ) {
                        (Some(Token::Punct('.')), Some(Token::Ident("self"))) => true,
                        (Some(Token::Punct('.')), _) => false,
                        _ => true,
                    };
                    let list =
                        if receiver { &mut info.self_config } else { &mut info.other_config };
                    if !list.contains(name) {
                        list.push(name.clone());
                    }
                }
            }
            _ => {
                // An annotation applies to the declaration that follows it; anything else in
                // between (a `var`) ends it.
                if lexed.first
                    && pending_rpc.is_some()
                    && !matches!(lexed.token, Token::Ident("func"))
                {
                    pending_rpc = None;
                }
            }
        }
        i = i.saturating_add(1);
    }
    info
}

#[cfg(test)]
#[allow(clippy::indexing_slicing)]
mod tests {
    use super::*;

    #[test]
    fn comments_and_strings_that_look_like_annotations_are_not_code() {
        let info = parse_script(
            "extends Node\n# @rpc\n# func commented(): pass\nvar a = \"\"\"\n@rpc\nfunc in_string():\n\"\"\"\nvar b = '@rpc func single()' # @rpc\n@rpc\nfunc real():\n\tpass\n",
        );
        let names: Vec<&str> = info.rpc.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(names, ["real"]);
        assert_eq!(info.extends, Some(Extends::Class("Node".into())));
    }

    #[test]
    fn annotation_forms_and_inner_classes() {
        let info = parse_script(
            "class_name Player extends CharacterBody2D\n\n@rpc(\"any_peer\",\n  \"call_local\", \"unreliable_ordered\", 2)\nfunc move(x):\n\tpass\n@rpc func one_line(): pass\n@rpc\n@warning_ignore(\"unused\")\nfunc stacked(): pass\n@rpc\nvar not_a_function = 1\nfunc plain(): pass\nclass Inner extends Node:\n\t@rpc\n\tfunc inner_rpc(): pass\nstatic func s(): pass\n",
        );
        let names: Vec<&str> = info.rpc.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(names, ["move", "one_line", "stacked"]);
        assert_eq!(info.rpc[0].arguments, ["any_peer", "call_local", "unreliable_ordered", "2"]);
        assert_eq!(info.class_name.as_deref(), Some("Player"));
        assert_eq!(info.extends, Some(Extends::Class("CharacterBody2D".into())));
    }

    #[test]
    fn rpc_config_calls_with_literal_names() {
        let info = parse_script(
            "extends Node\nfunc _ready():\n\trpc_config(\"a\", {})\n\tself.rpc_config(&\"b\", {})\n\tplayer.rpc_config(&'c', {})\n\tget_node(\"X\").rpc_config(\"d\", {})\n\trpc_config(name_variable, {})\n\t# rpc_config(\"e\", {})\n",
        );
        assert_eq!(info.self_config, ["a", "b"]);
        assert_eq!(info.other_config, ["c", "d"]);
    }

    #[test]
    fn escapes_and_non_ascii() {
        let info = parse_script("extends \"res://b\\u00e4se.gd\"\n@rpc\nfunc grüßen(): pass\n");
        assert_eq!(info.extends, Some(Extends::Path("res://bäse.gd".into())));
        assert_eq!(info.rpc[0].name, "grüßen");
    }

    #[test]
    fn malformed_scripts_do_not_panic() {
        for text in [
            "",
            "@",
            "@rpc(",
            "@rpc(\"",
            "\"\"\"",
            "extends",
            "extends \"",
            "rpc_config(",
            "\\",
            "'\\u",
            "r\"\\",
            "func",
            "@rpc\n",
            "class_name",
            "\u{0}\u{FFFD}@rpc func ",
            "&\"",
            "^'",
        ] {
            let _ = parse_script(text);
        }
        // An unterminated triple-quoted string hides everything after it.
        assert!(parse_script("var s = \"\"\"\n@rpc\nfunc f(): pass\n").rpc.is_empty());
    }
}
