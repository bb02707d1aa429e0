//! CSV from record batches: one column per leaf (struct fields flattened into names in the
//! path syntax of `--columns` and `gdvariant::view::parse_path`, `pos/x`), lists as JSON text
//! (strings escaped by `gdvariant::json::write_escaped`), bytes as standard base64 (the
//! `base64` crate), nulls empty. The records are written by the `csv` crate's `Writer` with
//! its RFC 4180 quoting: a field is quoted when it holds a comma, a quote or a line break
//! (quotes doubled), and a record of one empty field is written `""`; lines end in `\n`.
//! O(batch); formats into a byte buffer, so batches can be formatted on several threads and
//! written in order.

use std::fmt::Write as _;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;

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
    let mut out = Vec::new();
    let mut writer = writer(&mut out);
    for name in &names {
        crate::work((name.len() >> 5).saturating_add(1));
    }
    // A `Vec<u8>` takes every write, so the writer cannot fail.
    let _ = writer.write_record(&names).and_then(|()| writer.flush().map_err(Into::into));
    drop(writer);
    out
}

/// Appends the rows of `batch` (one line each) to `out`. O(cells + the bytes written): a
/// list cell's JSON recurses on the column's type (nesting bounded by the schema); memory: one
/// cell. Counted by the work counter (feature `work-counter`).
pub fn write_rows(batch: &RecordBatch, out: &mut Vec<u8>) {
    let mut writer = writer(out);
    // A `Vec<u8>` takes every write, so the writer cannot fail.
    let _ = rows(batch, &mut writer).and_then(|()| writer.flush().map_err(Into::into));
}

/// The CSV writer of both: RFC 4180 quoting where needed, `\n` after each record.
fn writer(out: &mut Vec<u8>) -> csv::Writer<&mut Vec<u8>> {
    csv::WriterBuilder::new()
        .quote_style(csv::QuoteStyle::Necessary)
        .terminator(csv::Terminator::Any(b'\n'))
        .from_writer(out)
}

/// The rows of `batch`, one record each.
fn rows(batch: &RecordBatch, writer: &mut csv::Writer<&mut Vec<u8>>) -> csv::Result<()> {
    let mut cell = String::new();
    for row in 0..batch.num_rows() {
        crate::work(1);
        for column in batch.columns() {
            cells(column, row, true, &mut cell, writer)?;
        }
        writer.write_record(None::<&[u8]>)?;
    }
    Ok(())
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

/// The cells of `column`'s row `row` (several for a struct), each formatted in `cell` and
/// written as one field: `present` is false under a null struct.
fn cells(
    column: &ArrayRef,
    row: usize,
    present: bool,
    cell: &mut String,
    writer: &mut csv::Writer<&mut Vec<u8>>,
) -> csv::Result<()> {
    crate::work(1);
    if let DataType::Struct(fields) = column.data_type()
        && !fields.is_empty()
    {
        let array = column.as_struct();
        let present = present && array.is_valid(row);
        for child in array.columns() {
            cells(child, row, present, cell, writer)?;
        }
        return Ok(());
    }
    cell.clear();
    if present && !column.is_null(row) {
        match column.data_type() {
            DataType::Utf8 => cell.push_str(column.as_string::<i32>().value(row)),
            DataType::List(_) => json(column, row, false, cell),
            _ => scalar(column, row, cell),
        }
    }
    // Scanned for quoting, then copied (doubling its quotes).
    crate::work((cell.len() >> 5).saturating_add(1));
    writer.write_field(cell.as_bytes())
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

/// A JSON string literal (the library's escaping, as in its JSON). Each character copied or
/// escaped: a unit per 64 bytes of text, and per 64 bytes written.
fn json_string(out: &mut String, text: &str) {
    let before = out.len();
    // Writing to a `String` cannot fail.
    let _ = gdvariant::json::write_escaped(out, text);
    crate::work((text.len() >> 6).saturating_add(out.len().saturating_sub(before) >> 6));
}

/// Standard, padded base64.
fn base64(out: &mut String, bytes: &[u8]) {
    crate::work((bytes.len() >> 6).saturating_add(1));
    BASE64.encode_string(bytes, out);
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::indexing_slicing)]

    use std::sync::Arc;

    use arrow_array::{BinaryArray, Int64Array, StringArray};

    use super::*;

    fn batch(columns: Vec<(&str, ArrayRef)>) -> RecordBatch {
        RecordBatch::try_from_iter(columns).unwrap()
    }

    fn text(batch: &RecordBatch) -> String {
        let mut out = header(&batch.schema());
        write_rows(batch, &mut out);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn fields_are_quoted_as_rfc_4180_says_and_read_back() {
        let notes = [
            Some("plain"),
            Some("a,b"),
            Some("say \"hi\""),
            Some("two\nlines"),
            Some(" padded "),
            None,
        ];
        let batch = batch(vec![
            ("id", Arc::new(Int64Array::from_iter_values(0..6)) as ArrayRef),
            ("note, text", Arc::new(StringArray::from(notes.to_vec())) as ArrayRef),
        ]);
        let csv = text(&batch);
        assert_eq!(
            csv,
            "id,\"note, text\"\n0,plain\n1,\"a,b\"\n2,\"say \"\"hi\"\"\"\n3,\"two\nlines\"\n4, padded \n5,\n"
        );
        let mut reader = csv::Reader::from_reader(csv.as_bytes());
        assert_eq!(reader.headers().unwrap(), vec!["id", "note, text"]);
        let read: Vec<String> = reader.records().map(|r| r.unwrap()[1].to_owned()).collect();
        let expected: Vec<String> = notes.iter().map(|n| n.unwrap_or("").to_owned()).collect();
        assert_eq!(read, expected);
    }

    #[test]
    fn a_record_of_one_empty_field_is_two_quotes() {
        let batch =
            batch(vec![("note", Arc::new(StringArray::from(vec![Some("a"), None])) as ArrayRef)]);
        assert_eq!(text(&batch), "note\na\n\"\"\n");
    }

    #[test]
    fn bytes_are_standard_padded_base64() {
        let bytes: Vec<&[u8]> = vec![b"", b"f", b"fo", b"foo", &[0xff, 0xfe, 0xfd]];
        let batch = batch(vec![
            ("id", Arc::new(Int64Array::from_iter_values(0..5)) as ArrayRef),
            ("bytes", Arc::new(BinaryArray::from(bytes)) as ArrayRef),
        ]);
        assert_eq!(text(&batch), "id,bytes\n0,\n1,Zg==\n2,Zm8=\n3,Zm9v\n4,//79\n");
    }
}
