//! CSV from record batches: one column per leaf (struct fields flattened into names in the
//! path syntax of `--columns` and `gdvariant::parse_path`, `pos/x`), lists as JSON text, bytes as base64, nulls empty; fields quoted when they hold a
//! comma, a quote or a line break (RFC 4180). O(batch); formats into a byte buffer, so
//! batches can be formatted on several threads and written in order.

use std::fmt::Write as _;

use arrow_array::cast::AsArray;
use arrow_array::types::{Float32Type, Float64Type, Int32Type, Int64Type};
use arrow_array::{Array, ArrayRef, RecordBatch};
use arrow_schema::{DataType, Field, Schema};

use crate::shape::JSON_METADATA;

/// The names of the CSV columns of `schema`: the leaf paths, in order.
pub fn column_names(schema: &Schema) -> Vec<String> {
    let mut names = Vec::new();
    for field in schema.fields() {
        leaf_names(field.name(), field.data_type(), &mut names);
    }
    names
}

/// The header line (with its line break): the leaf columns' paths (`pos/x`; a field whose
/// name needs it in double quotes, [`crate::path::segment`]).
pub fn header(schema: &Schema) -> Vec<u8> {
    let names = column_names(schema);
    let mut line = String::new();
    for (i, name) in names.iter().enumerate() {
        if i > 0 {
            line.push(',');
        }
        quoted(&mut line, name);
    }
    line.push('\n');
    line.into_bytes()
}

/// Appends the rows of `batch` (one line each) to `out`. O(cells + the bytes written): a
/// list cell's JSON recurses on the column's type (nesting bounded by the schema); memory: one
/// line. Counted by the work counter (feature `work-counter`).
pub fn write_rows(batch: &RecordBatch, out: &mut Vec<u8>) {
    let mut line = String::new();
    for row in 0..batch.num_rows() {
        crate::work(1);
        line.clear();
        let mut first = true;
        for column in batch.columns() {
            cells(column, row, true, &mut first, &mut line);
        }
        line.push('\n');
        crate::work(line.len() >> 6);
        out.extend_from_slice(line.as_bytes());
    }
}

/// The paths of the leaves under `name`.
fn leaf_names(name: &str, data_type: &DataType, out: &mut Vec<String>) {
    match data_type {
        DataType::Struct(fields) if !fields.is_empty() => {
            for field in fields {
                let name = format!("{name}/{}", crate::path::segment(field.name()));
                leaf_names(&name, field.data_type(), out);
            }
        }
        _ => out.push(name.to_owned()),
    }
}

/// The cells of `column`'s row `row` (several for a struct): `present` is false under a null
/// struct.
fn cells(column: &ArrayRef, row: usize, present: bool, first: &mut bool, line: &mut String) {
    crate::work(1);
    if let DataType::Struct(fields) = column.data_type()
        && !fields.is_empty()
    {
        let array = column.as_struct();
        let present = present && array.is_valid(row);
        for child in array.columns() {
            cells(child, row, present, first, line);
        }
        return;
    }
    if !*first {
        line.push(',');
    }
    *first = false;
    if !present || column.is_null(row) {
        return;
    }
    match column.data_type() {
        DataType::Utf8 => quoted(line, column.as_string::<i32>().value(row)),
        DataType::List(_) => {
            let mut text = String::new();
            json(column, row, false, &mut text);
            quoted(line, &text);
        }
        _ => scalar(column, row, line),
    }
}

/// A scalar cell (numbers, booleans, bytes as base64).
fn scalar(column: &ArrayRef, row: usize, out: &mut String) {
    let _ = match column.data_type() {
        DataType::Boolean => write!(out, "{}", column.as_boolean().value(row)),
        DataType::Int64 => write!(out, "{}", column.as_primitive::<Int64Type>().value(row)),
        DataType::Int32 => write!(out, "{}", column.as_primitive::<Int32Type>().value(row)),
        DataType::Float64 => real(out, column.as_primitive::<Float64Type>().value(row)),
        DataType::Float32 => {
            let value = column.as_primitive::<Float32Type>().value(row);
            if value.is_finite() { write!(out, "{value:?}") } else { real(out, value.into()) }
        }
        DataType::Binary => {
            base64(out, column.as_binary::<i32>().value(row));
            Ok(())
        }
        _ => Ok(()),
    };
}

/// A real: the shortest decimal that reads back to the same value; `NaN`, `inf`, `-inf`.
fn real(out: &mut String, value: f64) -> std::fmt::Result {
    if value.is_nan() {
        out.write_str("NaN")
    } else if value.is_infinite() {
        out.write_str(if value > 0.0 { "inf" } else { "-inf" })
    } else {
        write!(out, "{value:?}")
    }
}

/// Row `row` of `column` as natural JSON (for lists in a cell); `raw`: the column holds JSON
/// text already. Recurses on the column's type, whose nesting the schema bounds.
fn json(column: &ArrayRef, row: usize, raw: bool, out: &mut String) {
    crate::work(1);
    if column.is_null(row) {
        out.push_str("null");
        return;
    }
    match column.data_type() {
        DataType::Utf8 if raw => {
            let text = column.as_string::<i32>().value(row);
            crate::work(text.len() >> 6);
            out.push_str(text);
        }
        DataType::Utf8 => json_string(out, column.as_string::<i32>().value(row)),
        DataType::Binary => {
            out.push('"');
            base64(out, column.as_binary::<i32>().value(row));
            out.push('"');
        }
        DataType::Float64 | DataType::Float32 => {
            let mut text = String::new();
            scalar(column, row, &mut text);
            if text.starts_with(|c: char| c.is_ascii_digit() || c == '-') && text != "-inf" {
                out.push_str(&text);
            } else {
                json_string(out, &text);
            }
        }
        DataType::List(item) => {
            let raw = is_json(item);
            let items = column.as_list::<i32>().value(row);
            out.push('[');
            for i in 0..items.len() {
                if i > 0 {
                    out.push(',');
                }
                json(&items, i, raw, out);
            }
            out.push(']');
        }
        DataType::Struct(fields) => {
            let array = column.as_struct();
            out.push('{');
            for (i, (field, child)) in fields.iter().zip(array.columns()).enumerate() {
                if i > 0 {
                    out.push(',');
                }
                json_string(out, field.name());
                out.push(':');
                json(child, row, is_json(field), out);
            }
            out.push('}');
        }
        DataType::Null => out.push_str("null"),
        _ => scalar(column, row, out),
    }
}

/// Whether a field holds natural JSON text.
fn is_json(field: &Field) -> bool {
    field.metadata().get(JSON_METADATA).is_some_and(|v| v == "true")
}

/// A JSON string literal.
fn json_string(out: &mut String, text: &str) {
    // Each character copied or escaped: a unit per 64 bytes of text, and per 8 escapes.
    let before = out.len();
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c < ' ' => {
                const DIGITS: &[u8; 16] = b"0123456789abcdef";
                let code = u32::from(c);
                out.push_str("\\u00");
                for nibble in [code >> 4, code & 15] {
                    let digit = DIGITS.get(usize::try_from(nibble).unwrap_or(0)).copied();
                    out.push(char::from(digit.unwrap_or(b'0')));
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
    crate::work((text.len() >> 6).saturating_add(out.len().saturating_sub(before) >> 6));
}

/// A CSV field, quoted when it must be.
fn quoted(out: &mut String, text: &str) {
    // Scanned, then copied (doubling its quotes).
    crate::work((text.len() >> 5).saturating_add(1));
    if text.contains([',', '"', '\n', '\r']) || text.starts_with(' ') || text.ends_with(' ') {
        out.push('"');
        out.push_str(&text.replace('"', "\"\""));
        out.push('"');
    } else {
        out.push_str(text);
    }
}

/// Standard, padded base64.
fn base64(out: &mut String, bytes: &[u8]) {
    crate::work((bytes.len() >> 6).saturating_add(1));
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let digit = |bits: u32| {
        char::from(ALPHABET.get(usize::try_from(bits & 63).unwrap_or(0)).copied().unwrap_or(b'A'))
    };
    for chunk in bytes.chunks(3) {
        let [a, b, c] = [0, 1, 2].map(|i| u32::from(chunk.get(i).copied().unwrap_or(0)));
        let group = (a << 16) | (b << 8) | c;
        out.push(digit(group >> 18));
        out.push(digit(group >> 12));
        out.push(if chunk.len() > 1 { digit(group >> 6) } else { '=' });
        out.push(if chunk.len() > 2 { digit(group) } else { '=' });
    }
}
