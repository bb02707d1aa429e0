//! The [`Writer`]'s packed arrays: bytes, numbers, strings, real vectors and colors, written
//! little-endian (copied whole on little-endian targets, batched through a stack `Chunk`
//! elsewhere).

use super::*;

impl<O: Output, const NESTING: usize> Writer<O, NESTING> {
    /// A `PackedByteArray`, zero-padded to 4 bytes.
    ///
    /// # Errors
    /// [`EncodeError::TooLarge`] past `i32::MAX` bytes; see [`Writer`].
    pub fn packed_bytes(&mut self, bytes: &[u8]) -> Result<(), EncodeError> {
        let count = count_u32(bytes.len(), MAX_SIZE)?;
        self.begin(VariantType::PackedByteArray, 0)?;
        self.put_u32(count)?;
        self.put_bytes(bytes)?;
        self.put_padding(bytes.len())?;
        self.end();
        Ok(())
    }

    /// A `PackedInt32Array` (Godot 3: `PoolIntArray`).
    ///
    /// # Errors
    /// [`EncodeError::TooLarge`] past `i32::MAX` bytes of elements; see [`Writer`].
    pub fn packed_int32(&mut self, values: &[i32]) -> Result<(), EncodeError> {
        self.packed_scalars(VariantType::PackedInt32Array, values)
    }

    /// A `PackedInt64Array` (Godot 4).
    ///
    /// # Errors
    /// [`EncodeError::NotInVersion`] in Godot 3; see [`Writer::packed_int32`].
    pub fn packed_int64(&mut self, values: &[i64]) -> Result<(), EncodeError> {
        self.packed_scalars(VariantType::PackedInt64Array, values)
    }

    /// A `PackedFloat32Array` (Godot 3: `PoolRealArray`).
    ///
    /// # Errors
    /// See [`Writer::packed_int32`].
    pub fn packed_float32(&mut self, values: &[f32]) -> Result<(), EncodeError> {
        self.packed_scalars(VariantType::PackedFloat32Array, values)
    }

    /// A `PackedFloat64Array` (Godot 4).
    ///
    /// # Errors
    /// [`EncodeError::NotInVersion`] in Godot 3; see [`Writer::packed_int32`].
    pub fn packed_float64(&mut self, values: &[f64]) -> Result<(), EncodeError> {
        self.packed_scalars(VariantType::PackedFloat64Array, values)
    }

    /// A `PackedStringArray` (Godot 3: `PoolStringArray`): each length counts a trailing NUL,
    /// which is written.
    ///
    /// # Errors
    /// [`EncodeError::TooLarge`] past `i32::MAX` strings or a string of `i32::MAX` bytes; see
    /// [`Writer`].
    pub fn packed_strings<'s, I>(&mut self, strings: I) -> Result<(), EncodeError>
    where
        I: IntoIterator<Item = &'s str>,
        I::IntoIter: ExactSizeIterator,
    {
        self.packed_strings_bytes(strings.into_iter().map(str::as_bytes))
    }

    /// [`Writer::packed_strings`] from the bytes of each string (a
    /// [`GdString`](crate::owned::GdString)'s).
    pub(crate) fn packed_strings_bytes<'s, I>(&mut self, strings: I) -> Result<(), EncodeError>
    where
        I: ExactSizeIterator<Item = &'s [u8]>,
    {
        let count = count_u32(strings.len(), MAX_SIZE)?;
        self.begin(VariantType::PackedStringArray, 0)?;
        self.put_u32(count)?;
        for text in strings {
            let with_nul = text.len().saturating_add(1);
            work::add(1);
            self.put_u32(count_u32(with_nul, MAX_SIZE)?)?;
            self.put_bytes(text)?;
            self.out.write(&[0])?;
            self.put_padding(with_nul)?;
        }
        self.end();
        Ok(())
    }

    /// A `PackedVector2Array` (Godot 3: `PoolVector2Array`).
    ///
    /// # Errors
    /// See [`Writer::packed_int32`].
    pub fn packed_vector2<R: Real>(&mut self, values: &[Vector2<R>]) -> Result<(), EncodeError> {
        self.packed_reals(VariantType::PackedVector2Array, values, 2, |v, f| {
            v.for_each_component(f)
        })
    }

    /// A `PackedVector3Array` (Godot 3: `PoolVector3Array`).
    ///
    /// # Errors
    /// See [`Writer::packed_int32`].
    pub fn packed_vector3<R: Real>(&mut self, values: &[Vector3<R>]) -> Result<(), EncodeError> {
        self.packed_reals(VariantType::PackedVector3Array, values, 3, |v, f| {
            v.for_each_component(f)
        })
    }

    /// A `PackedVector4Array` (Godot 4.3+).
    ///
    /// # Errors
    /// [`EncodeError::NotInVersion`] in Godot 3; see [`Writer::packed_int32`].
    pub fn packed_vector4<R: Real>(&mut self, values: &[Vector4<R>]) -> Result<(), EncodeError> {
        self.packed_reals(VariantType::PackedVector4Array, values, 4, |v, f| {
            v.for_each_component(f)
        })
    }

    /// A `PackedColorArray` (Godot 3: `PoolColorArray`), always `f32`.
    ///
    /// # Errors
    /// See [`Writer::packed_int32`].
    pub fn packed_colors(&mut self, values: &[Color<f32>]) -> Result<(), EncodeError> {
        let size = values.len().checked_mul(16).filter(|&s| s <= MAX_SIZE);
        let count = match size {
            Some(_) => count_u32(values.len(), MAX_SIZE)?,
            None => return Err(EncodeError::TooLarge { len: values.len() }),
        };
        self.begin(VariantType::PackedColorArray, 0)?;
        self.put_u32(count)?;
        for group in values.chunks(Chunk::per_chunk(16)) {
            work::add(group.len());
            let mut chunk = Chunk::new();
            for color in group {
                color.for_each_component(|c| chunk.put(&c.to_le_bytes()));
            }
            self.out.write(chunk.bytes())?;
        }
        self.end();
        Ok(())
    }
}

impl<O: Output, const NESTING: usize> Writer<O, NESTING> {
    /// A packed array of numbers.
    fn packed_scalars<T: Scalar>(
        &mut self,
        ty: VariantType,
        values: &[T],
    ) -> Result<(), EncodeError> {
        let size = values.len().checked_mul(size_of::<T>()).filter(|&s| s <= MAX_SIZE);
        if size.is_none() {
            return Err(EncodeError::TooLarge { len: values.len() });
        }
        let count = count_u32(values.len(), MAX_SIZE)?;
        self.begin(ty, 0)?;
        self.put_u32(count)?;
        if cfg!(target_endian = "little") {
            // The wire bytes are the memory bytes.
            self.put_bytes(values.as_bytes())?;
        } else {
            for group in values.chunks(Chunk::per_chunk(size_of::<T>())) {
                work::add(group.len());
                let mut chunk = Chunk::new();
                group.iter().for_each(|v| v.put_le(&mut chunk));
                self.out.write(chunk.bytes())?;
            }
        }
        self.end();
        Ok(())
    }

    /// A packed array of real-valued vectors of `components` reals each.
    fn packed_reals<V: Copy, R: Real>(
        &mut self,
        ty: VariantType,
        values: &[V],
        components: usize,
        visit: impl Fn(V, &mut dyn FnMut(R)),
    ) -> Result<(), EncodeError> {
        let precision = self.options.precision();
        let element_size = components.saturating_mul(precision.size());
        let size = values.len().checked_mul(element_size).filter(|&s| s <= MAX_SIZE);
        if size.is_none() {
            return Err(EncodeError::TooLarge { len: values.len() });
        }
        let count = count_u32(values.len(), MAX_SIZE)?;
        let flags = if precision == Precision::Double { FLAG_64 } else { 0 };
        self.begin(ty, flags)?;
        self.put_u32(count)?;
        for group in values.chunks(Chunk::per_chunk(element_size)) {
            // Each element's components are converted one by one.
            work::add(group.len());
            let mut chunk = Chunk::new();
            for value in group {
                visit(*value, &mut |c: R| match precision {
                    Precision::Single => chunk.put(&c.single().to_le_bytes()),
                    Precision::Double => chunk.put(&c.double().to_le_bytes()),
                });
            }
            self.out.write(chunk.bytes())?;
        }
        self.end();
        Ok(())
    }
}

/// A number packed arrays hold, written little-endian.
trait Scalar: IntoBytes + zerocopy::Immutable + Copy {
    fn put_le(self, chunk: &mut Chunk);
}

macro_rules! scalar {
    ($($t:ty),*) => {$(
        impl Scalar for $t {
            fn put_le(self, chunk: &mut Chunk) {
                chunk.put(&self.to_le_bytes());
            }
        }
    )*};
}

scalar!(i32, i64, f32, f64);

/// A small stack buffer that batches the writes of many components.
struct Chunk {
    buf: [u8; Chunk::CAPACITY],
    len: usize,
}

impl Chunk {
    /// A multiple of every element size (4, 8, 12, 16, 24, 32 bytes...): 16 Projection reals
    /// in f64 is 128.
    const CAPACITY: usize = 384;

    fn new() -> Self {
        Chunk { buf: [0; Chunk::CAPACITY], len: 0 }
    }

    /// How many elements of `size` bytes fill a chunk (at least one).
    fn per_chunk(size: usize) -> usize {
        Chunk::CAPACITY.checked_div(size).unwrap_or(1).max(1)
    }

    /// Appends `bytes`; the callers never exceed the capacity (anything past it is dropped).
    fn put(&mut self, bytes: &[u8]) {
        let end = self.len.saturating_add(bytes.len());
        if let Some(target) = self.buf.get_mut(self.len..end) {
            target.copy_from_slice(bytes);
            self.len = end;
        }
    }

    fn bytes(&self) -> &[u8] {
        self.buf.get(..self.len).unwrap_or(&[])
    }
}
