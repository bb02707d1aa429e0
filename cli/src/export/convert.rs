//! One chunk of frames converted on a worker thread: a Parquet row group, an Arrow batch, CSV
//! lines or JSON Lines (each row's natural JSON, or an object of the `--columns` paths).

use super::*;

/// Checks, filters and converts one chunk.
#[allow(clippy::too_many_arguments)]
pub(super) fn convert(
    chunk: Chunk<'_>,
    name: &str,
    options: Options,
    conditions: &[Condition],
    on_bad: OnBad,
    schema: &ExportSchema,
    to: To,
    encoder: Option<&RowGroupEncoder>,
) -> Result<Done, String> {
    let number = chunk.number;
    let capacity = if schema.layout().rows == RowSource::Frames { chunk.items.len() } else { 0 };
    let mut builder = BatchBuilder::with_capacity(schema, capacity);
    let mut lines = Vec::new();
    let walked = records::walk(chunk, name, options, conditions, on_bad, |index, frame, _| {
        if to == To::Jsonl {
            json_rows(&mut lines, schema.layout(), index, frame).map_err(|e| e.to_string())
        } else {
            builder.push_frame(index, frame);
            Ok(())
        }
    });
    if to == To::Jsonl {
        let rows = lines_count(&lines);
        return Ok(Done {
            converted: Some(Converted::Bytes(lines)),
            rows,
            rejected: Vec::new(),
            walked,
        });
    }
    let (batch, rejected) = builder.finish().map_err(|e| e.to_string())?;
    let rows = batch.num_rows() as u64;
    let converted = match (to, encoder) {
        (To::Parquet, Some(encoder)) => {
            if batch.num_rows() == 0 {
                None
            } else {
                Some(Converted::RowGroup(
                    encoder.encode(number, &batch).map_err(|e| e.to_string())?,
                ))
            }
        }
        (To::Csv, _) => {
            let mut out = Vec::new();
            csv::write_rows(&batch, &mut out);
            Some(Converted::Bytes(out))
        }
        _ => Some(Converted::Batch(batch)),
    };
    Ok(Done { converted, rows, rejected, walked })
}

/// Lines in a buffer of JSON Lines.
pub(super) fn lines_count(lines: &[u8]) -> u64 {
    lines.iter().filter(|b| **b == b'\n').count() as u64
}

/// A frame's rows as JSON Lines: each row's natural JSON, or with `--columns` an object of
/// those columns; with `--frame-columns`, `_frame` and `_offset` first.
pub(super) fn json_rows(
    out: &mut Vec<u8>,
    layout: &Layout,
    index: u64,
    frame: &Frame<'_>,
) -> Result<(), gdvariant::Error> {
    let value = frame.value();
    let rows: Vec<gdvariant::VariantRef<'_>> = match layout.rows {
        RowSource::Frames => vec![value],
        RowSource::Elements => match value.as_array() {
            Some(array) => array.iter().collect::<Result<_, _>>()?,
            None => Vec::new(),
        },
    };
    for row in rows {
        let mut text = String::new();
        match &layout.columns {
            Some(paths) => {
                text.push('{');
                for (i, steps) in paths.iter().enumerate() {
                    if i > 0 {
                        text.push(',');
                    }
                    text.push_str(&json_string(&path::text(steps)));
                    text.push(':');
                    let keys: Vec<_> = steps.iter().map(Step::key).collect();
                    // A path that cannot be followed finds nothing, as in the other formats.
                    match path::resolve(row, &keys) {
                        Some(Found::Value(found)) => {
                            text.push_str(&gdvariant::json::to_natural_json(found)?)
                        }
                        Some(Found::Int(int)) => text.push_str(&int.to_string()),
                        Some(Found::Real(real)) => json_real(&mut text, real, format!("{real:?}")),
                        Some(Found::Real32(real)) => {
                            json_real(&mut text, real.into(), format!("{real:?}"))
                        }
                        None => text.push_str("null"),
                    }
                }
                text.push('}');
            }
            None => text = gdvariant::json::to_natural_json(row)?,
        }
        if layout.frame_columns {
            let head = format!("\"_frame\":{index},\"_offset\":{}", frame.offset());
            text = match text.strip_prefix('{') {
                Some("}") => format!("{{{head}}}"),
                Some(rest) => format!("{{{head},{rest}"),
                None => format!("{{{head},\"value\":{text}}}"),
            };
        }
        out.extend_from_slice(text.as_bytes());
        out.push(b'\n');
    }
    Ok(())
}

/// A real in natural JSON: its shortest text (`finite`), or `"NaN"`, `"Infinity"`,
/// `"-Infinity"`.
pub(super) fn json_real(out: &mut String, real: f64, finite: String) {
    match () {
        () if real.is_nan() => out.push_str("\"NaN\""),
        () if real == f64::INFINITY => out.push_str("\"Infinity\""),
        () if real == f64::NEG_INFINITY => out.push_str("\"-Infinity\""),
        () => out.push_str(&finite),
    }
}

/// A JSON string literal, escaped as the library escapes every string of its JSON.
pub(super) fn json_string(text: &str) -> String {
    let mut out = String::new();
    // Writing to a `String` cannot fail.
    let _ = gdvariant::json::write_escaped(&mut out, text);
    out
}
