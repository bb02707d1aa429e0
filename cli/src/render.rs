//! A value as text, lossless JSON or natural JSON.

use gdvariant::{VariantRef, Version};

use crate::Format;

/// `value`, read as `version`, in `format`; or the library's error (with its byte offset).
pub fn render(
    value: VariantRef<'_>,
    format: Format,
    version: Version,
) -> Result<String, gdvariant::Error> {
    match format {
        Format::Text => gdvariant::text::to_text_as(value, version),
        Format::Json => gdvariant::json::to_json(value),
        Format::Natural => gdvariant::json::to_natural_json(value),
    }
}
