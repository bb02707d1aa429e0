//! A column after its rows: cut back to a length after a misfit, its Arrow field and type, and
//! the Arrow array it becomes (its buffers taken, the column left empty).

use super::*;

impl Column {
    /// Cuts the column back to its first `len` rows (after a [`Misfit`]).
    pub fn truncate(&mut self, len: usize) {
        crate::work(1);
        self.valid.truncate(len);
        match &mut self.data {
            Data::Null => {}
            Data::Bool(values) => values.truncate(len),
            Data::Int(values) => values.truncate(len),
            Data::Int32(values) => values.truncate(len),
            Data::Float(values) => values.truncate(len),
            Data::Float32(values) => values.truncate(len),
            Data::Bytes { offsets, bytes } => {
                offsets.truncate(len.saturating_add(1));
                let end = offsets.last().copied().unwrap_or(0);
                bytes.truncate(usize::try_from(end).unwrap_or(0));
            }
            Data::List { offsets, child } => {
                offsets.truncate(len.saturating_add(1));
                let end = offsets.last().copied().unwrap_or(0);
                child.truncate(usize::try_from(end).unwrap_or(0));
            }
            Data::Struct { fields, .. } | Data::Math { fields, .. } => {
                for field in fields {
                    field.truncate(len);
                }
            }
        }
    }

    /// The Arrow field of the column, named `name`.
    pub fn field(&self, name: &str) -> Field {
        match &self.data {
            Data::Math { .. } => Field::new(name, self.data_type(), true),
            _ => self.shape.field(name),
        }
    }

    /// The Arrow type of the column.
    pub(super) fn data_type(&self) -> DataType {
        match &self.data {
            Data::Math { fields, spec, .. } => DataType::Struct(
                fields.iter().zip(spec.iter()).map(|(f, part)| f.field(part.name)).collect(),
            ),
            _ => self.shape.data_type(),
        }
    }

    /// The column as an Arrow array; the column is left empty.
    pub fn finish(&mut self) -> ArrayRef {
        let valid = std::mem::take(&mut self.valid);
        let len = valid.len();
        // The validity scanned and packed, text checked as UTF-8 by Arrow.
        let text = match &self.data {
            Data::Bytes { bytes, .. } => bytes.len(),
            _ => 0,
        };
        crate::work((len >> 6).saturating_add(text >> 6).saturating_add(1));
        let nulls = if valid.iter().all(|v| *v) { None } else { Some(NullBuffer::from(valid)) };
        let data_type = self.data_type();
        match &mut self.data {
            Data::Null => Arc::new(NullArray::new(len)),
            Data::Bool(values) => Arc::new(BooleanArray::new(std::mem::take(values).into(), nulls)),
            Data::Int(values) => Arc::new(Int64Array::new(take_buffer(values), nulls)),
            Data::Int32(values) => Arc::new(Int32Array::new(take_buffer(values), nulls)),
            Data::Float(values) => Arc::new(Float64Array::new(take_buffer(values), nulls)),
            Data::Float32(values) => Arc::new(Float32Array::new(take_buffer(values), nulls)),
            Data::Bytes { offsets, bytes } => {
                let offsets = take_offsets(offsets);
                let bytes = std::mem::take(bytes).into();
                if self.shape == Shape::Bytes {
                    Arc::new(BinaryArray::new(offsets, bytes, nulls))
                } else {
                    // Every item was appended from a `str`.
                    match StringArray::try_new(offsets.clone(), bytes, nulls) {
                        Ok(array) => Arc::new(array),
                        Err(_) => Arc::new(StringArray::new_null(len)),
                    }
                }
            }
            Data::List { offsets, child } => {
                let DataType::List(field) = data_type else {
                    return Arc::new(NullArray::new(len));
                };
                let offsets = take_offsets(offsets);
                Arc::new(ListArray::new(field, offsets, child.finish(), nulls))
            }
            Data::Struct { fields, .. } | Data::Math { fields, .. } => {
                let DataType::Struct(struct_fields) = data_type else {
                    return Arc::new(NullArray::new(len));
                };
                if fields.is_empty() {
                    return Arc::new(StructArray::new_empty_fields(len, nulls));
                }
                let arrays = fields.iter_mut().map(Column::finish).collect();
                Arc::new(StructArray::new(struct_fields, arrays, nulls))
            }
        }
    }
}
