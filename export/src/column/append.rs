//! Appending what a value holds: natural JSON text, lists of numbers, vectors and math values
//! (one child column per component), and dictionaries into struct columns (one child per field,
//! null where the key is missing).

use super::*;

impl Column {
    /// Appends a value's natural JSON, written straight into the column's bytes.
    pub(super) fn push_json(&mut self, value: VariantRef<'_>) -> Result<(), Misfit> {
        let Data::Bytes { offsets, bytes } = &mut self.data else { return Err(Misfit::TooLarge) };
        json::write_natural_json(value, &mut Utf8Sink(bytes)).map_err(|error| match error {
            json::JsonError::Value(error) => Misfit::Malformed(error),
            _ => Misfit::TooLarge,
        })?;
        end_item(offsets, bytes.len())?;
        self.valid.push(true);
        Ok(())
    }

    /// Appends an array or a packed array to a list column.
    pub(super) fn push_list(&mut self, value: VariantRef<'_>) -> Result<(), Misfit> {
        let found = value.variant_type();
        let name = self.name.clone();
        let Data::List { offsets, child } = &mut self.data else { return Ok(()) };
        let result = match value {
            VariantRef::Array(array) => {
                array.iter().try_for_each(|item| child.push(Some(item.map_err(Misfit::Malformed)?)))
            }
            VariantRef::PackedInt32Array(p) => child.push_numbers(p, |v| Number::Int(v.into())),
            VariantRef::PackedInt64Array(p) => child.push_numbers(p, Number::Int),
            VariantRef::PackedFloat32Array(p) => child.push_numbers(p, Number::Float32),
            VariantRef::PackedFloat64Array(p) => child.push_numbers(p, Number::Float),
            VariantRef::PackedStringArray(strings) => strings.iter().try_for_each(|s| {
                child.push(Some(VariantRef::String(s.map_err(Misfit::Malformed)?)))
            }),
            VariantRef::PackedVector2Array(p) => child.push_vectors(p, VariantType::Vector2, 2),
            VariantRef::PackedVector3Array(p) => child.push_vectors(p, VariantType::Vector3, 3),
            VariantRef::PackedVector4Array(p) => child.push_vectors(p, VariantType::Vector4, 4),
            VariantRef::PackedColorArray(p) => {
                let raw = p.raw_bytes();
                child.push_math_raw(raw, Precision::Single, VariantType::Color, 4)
            }
            _ => Err(Misfit::Type { column: name, expected: "an array".to_owned(), found }),
        };
        result?;
        end_item(offsets, child.len())?;
        self.valid.push(true);
        Ok(())
    }

    /// Appends the elements of a packed array of numbers.
    pub(super) fn push_numbers<T: PackedElement>(
        &mut self,
        packed: Packed<'_, T>,
        number: impl Fn(T) -> Number,
    ) -> Result<(), Misfit> {
        for value in packed.iter() {
            crate::work(1);
            match (&mut self.data, number(value)) {
                (Data::Int(values), Number::Int(i)) => values.push(i),
                (Data::Float(values), Number::Int(i)) if exact_f64(i).is_some() => {
                    values.push(exact_f64(i).unwrap_or_default())
                }
                (Data::Float(values), Number::Float(f)) => values.push(f),
                (Data::Float(values), Number::Float32(f)) => values.push(f.into()),
                (Data::Float32(values), Number::Float32(f)) => values.push(f),
                // Other columns (JSON, a float column given a large int): as single values.
                (_, Number::Int(i)) => {
                    self.push(Some(VariantRef::Int(i)))?;
                    continue;
                }
                (_, Number::Float(f)) => {
                    self.push(Some(VariantRef::Float(f)))?;
                    continue;
                }
                (_, Number::Float32(f)) => {
                    self.push(Some(VariantRef::Float(f.into())))?;
                    continue;
                }
            }
            self.valid.push(true);
        }
        Ok(())
    }

    /// Appends the elements of a packed array of vectors.
    pub(super) fn push_vectors<S: PackedElement, D: PackedElement>(
        &mut self,
        packed: PackedReals<'_, S, D>,
        ty: VariantType,
        components: usize,
    ) -> Result<(), Misfit> {
        match packed {
            PackedReals::Single(p) => {
                self.push_math_raw(p.raw_bytes(), Precision::Single, ty, components)
            }
            PackedReals::Double(p) => {
                self.push_math_raw(p.raw_bytes(), Precision::Double, ty, components)
            }
        }
    }

    /// Appends math values of `components` reals each from little-endian bytes.
    pub(super) fn push_math_raw(
        &mut self,
        raw: &[u8],
        precision: Precision,
        ty: VariantType,
        components: usize,
    ) -> Result<(), Misfit> {
        if !matches!(&self.data, Data::Math { ty: own, .. } if *own == ty) {
            return Err(self.mismatch(ty));
        }
        let size = precision.size().saturating_mul(components).max(1);
        for element in raw.chunks_exact(size) {
            crate::work(1);
            let mut reals = [0.0; 16];
            read_reals(element, precision, &mut reals);
            self.push_components(&Components::Reals(reals))?;
            self.valid.push(true);
        }
        Ok(())
    }

    /// Appends a math value's components to the leaves of a math column (or group).
    pub(super) fn push_components(&mut self, components: &Components) -> Result<(), Misfit> {
        let Data::Math { spec, fields, .. } = &mut self.data else { return Ok(()) };
        for (column, field) in fields.iter_mut().zip(spec.iter()) {
            crate::work(1);
            match field.kind {
                // The static tables nest three levels at most.
                FieldKind::Group(_) => column.push_components(components)?,
                FieldKind::Component(index) => match (&mut column.data, components) {
                    (Data::Float32(values), Components::Reals(reals)) => {
                        let real = reals.get(index).copied().unwrap_or_default();
                        let narrow = exact_f32(real).ok_or_else(|| Misfit::Type {
                            column: column.name.clone(),
                            expected: "single-precision reals".to_owned(),
                            found: VariantType::Float,
                        })?;
                        values.push(narrow);
                    }
                    (Data::Float(values), Components::Reals(reals)) => {
                        values.push(reals.get(index).copied().unwrap_or_default())
                    }
                    (Data::Int32(values), Components::Ints(ints)) => {
                        values.push(ints.get(index).copied().unwrap_or_default())
                    }
                    _ => {}
                },
            }
            if matches!(field.kind, FieldKind::Component(_)) {
                column.valid.push(true);
            }
        }
        // Groups record their own row; the outermost math column's row is recorded by `push`.
        if matches!(self.shape, Shape::Json(_)) {
            self.valid.push(true);
        }
        Ok(())
    }

    /// Appends a dictionary to a struct column.
    pub(super) fn push_struct(&mut self, value: VariantRef<'_>) -> Result<(), Misfit> {
        let name = self.name.clone();
        let Data::Struct { fields, keys, index, seen } = &mut self.data else { return Ok(()) };
        let VariantRef::Dictionary(dictionary) = value else { return Ok(()) };
        crate::work((seen.len() >> 6).saturating_add(1));
        seen.fill(false);
        let mut hint = 0usize;
        for entry in dictionary.iter() {
            let (key, item) = entry.map_err(Misfit::Malformed)?;
            // The key: compared with the next field, then hashed.
            crate::work(2);
            let text = match key {
                VariantRef::String(s) | VariantRef::StringName(s) => {
                    s.to_text().map_err(Misfit::Malformed)?
                }
                other => {
                    let key = format!("{:?}", other.variant_type());
                    return Err(Misfit::Key { column: name, key });
                }
            };
            crate::work(text.len() >> 5);
            // Keys usually come in the order of the schema: try the next field first.
            let at = match keys.get(hint) {
                Some(key) if *key == *text => hint,
                _ => match index.get(&*text) {
                    Some(&at) => at,
                    None => return Err(Misfit::Key { column: name, key: text.into_owned() }),
                },
            };
            match seen.get_mut(at) {
                Some(true) => {
                    return Err(Misfit::RepeatedKey { column: name, key: text.into_owned() });
                }
                Some(flag) => *flag = true,
                None => {}
            }
            if let Some(field) = fields.get_mut(at) {
                field.push(Some(item))?;
            }
            hint = at.saturating_add(1);
        }
        for (field, seen) in fields.iter_mut().zip(seen.iter()) {
            if !seen {
                field.push_null()?;
            }
        }
        self.valid.push(true);
        Ok(())
    }
}
