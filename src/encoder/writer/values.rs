//! The [`Writer`]'s one-call values: scalars, strings, math values (in the options'
//! precision), node paths, RIDs, objects and their properties, callables and signals.

use super::*;

impl<O: Output, const NESTING: usize> Writer<O, NESTING> {
    /// `null`.
    ///
    /// # Errors
    /// See [`Writer`]: too many values, depth, a full output.
    pub fn nil(&mut self) -> Result<(), EncodeError> {
        self.leaf(VariantType::Nil, 0, &[])
    }

    /// A `bool`.
    ///
    /// # Errors
    /// See [`Writer`].
    pub fn bool(&mut self, value: bool) -> Result<(), EncodeError> {
        self.leaf_word(VariantType::Bool, u32::from(value))
    }

    /// An `int`: 32 bits when it fits, else 64 bits with header bit 16.
    ///
    /// # Errors
    /// See [`Writer`].
    pub fn int(&mut self, value: i64) -> Result<(), EncodeError> {
        match i32::try_from(value) {
            Ok(narrow) => {
                self.leaf_word(VariantType::Int, u32::from_ne_bytes(narrow.to_ne_bytes()))
            }
            Err(_) => self.leaf(VariantType::Int, FLAG_64, &value.to_le_bytes()),
        }
    }

    /// A `float`: `f32` when that is exact (`0.5`, `-0.0`, infinities), else `f64` with header
    /// bit 16 (`0.1`, every NaN).
    ///
    /// # Errors
    /// See [`Writer`].
    pub fn float(&mut self, value: f64) -> Result<(), EncodeError> {
        let single = value as f32;
        if f64::from(single) == value {
            self.leaf_word(VariantType::Float, single.to_bits())
        } else {
            self.leaf(VariantType::Float, FLAG_64, &value.to_bits().to_le_bytes())
        }
    }

    /// A `String`.
    ///
    /// # Errors
    /// [`EncodeError::TooLarge`] past `i32::MAX` bytes; see [`Writer`].
    pub fn string(&mut self, text: &str) -> Result<(), EncodeError> {
        self.text(VariantType::String, text.as_bytes())
    }

    /// A `StringName` (Godot 4).
    ///
    /// # Errors
    /// [`EncodeError::NotInVersion`] in Godot 3; see [`Writer::string`].
    pub fn string_name(&mut self, text: &str) -> Result<(), EncodeError> {
        self.text(VariantType::StringName, text.as_bytes())
    }

    /// A `Vector2`.
    ///
    /// # Errors
    /// See [`Writer`].
    pub fn vector2<R: Real>(&mut self, value: Vector2<R>) -> Result<(), EncodeError> {
        self.reals::<R, 2>(VariantType::Vector2, |f| value.for_each_component(f))
    }

    /// A `Rect2`.
    ///
    /// # Errors
    /// See [`Writer`].
    pub fn rect2<R: Real>(&mut self, value: Rect2<R>) -> Result<(), EncodeError> {
        self.reals::<R, 4>(VariantType::Rect2, |f| value.for_each_component(f))
    }

    /// A `Vector3`.
    ///
    /// # Errors
    /// See [`Writer`].
    pub fn vector3<R: Real>(&mut self, value: Vector3<R>) -> Result<(), EncodeError> {
        self.reals::<R, 3>(VariantType::Vector3, |f| value.for_each_component(f))
    }

    /// A `Transform2D`.
    ///
    /// # Errors
    /// See [`Writer`].
    pub fn transform2d<R: Real>(&mut self, value: Transform2D<R>) -> Result<(), EncodeError> {
        self.reals::<R, 6>(VariantType::Transform2D, |f| value.for_each_component(f))
    }

    /// A `Vector4` (Godot 4).
    ///
    /// # Errors
    /// [`EncodeError::NotInVersion`] in Godot 3; see [`Writer`].
    pub fn vector4<R: Real>(&mut self, value: Vector4<R>) -> Result<(), EncodeError> {
        self.reals::<R, 4>(VariantType::Vector4, |f| value.for_each_component(f))
    }

    /// A `Plane`.
    ///
    /// # Errors
    /// See [`Writer`].
    pub fn plane<R: Real>(&mut self, value: Plane<R>) -> Result<(), EncodeError> {
        self.reals::<R, 4>(VariantType::Plane, |f| value.for_each_component(f))
    }

    /// A `Quaternion` (Godot 3: `Quat`).
    ///
    /// # Errors
    /// See [`Writer`].
    pub fn quaternion<R: Real>(&mut self, value: Quaternion<R>) -> Result<(), EncodeError> {
        self.reals::<R, 4>(VariantType::Quaternion, |f| value.for_each_component(f))
    }

    /// An `AABB`.
    ///
    /// # Errors
    /// See [`Writer`].
    pub fn aabb<R: Real>(&mut self, value: Aabb<R>) -> Result<(), EncodeError> {
        self.reals::<R, 6>(VariantType::Aabb, |f| value.for_each_component(f))
    }

    /// A `Basis` (rows, as Godot stores it).
    ///
    /// # Errors
    /// See [`Writer`].
    pub fn basis<R: Real>(&mut self, value: Basis<R>) -> Result<(), EncodeError> {
        self.reals::<R, 9>(VariantType::Basis, |f| value.for_each_component(f))
    }

    /// A `Transform3D` (Godot 3: `Transform`).
    ///
    /// # Errors
    /// See [`Writer`].
    pub fn transform3d<R: Real>(&mut self, value: Transform3D<R>) -> Result<(), EncodeError> {
        self.reals::<R, 12>(VariantType::Transform3D, |f| value.for_each_component(f))
    }

    /// A `Projection` (Godot 4).
    ///
    /// # Errors
    /// [`EncodeError::NotInVersion`] in Godot 3; see [`Writer`].
    pub fn projection<R: Real>(&mut self, value: Projection<R>) -> Result<(), EncodeError> {
        self.reals::<R, 16>(VariantType::Projection, |f| value.for_each_component(f))
    }

    /// A `Vector2i` (Godot 4).
    ///
    /// # Errors
    /// [`EncodeError::NotInVersion`] in Godot 3; see [`Writer`].
    pub fn vector2i(&mut self, value: Vector2<i32>) -> Result<(), EncodeError> {
        self.integers::<2>(VariantType::Vector2i, |f| value.for_each_component(f))
    }

    /// A `Rect2i` (Godot 4).
    ///
    /// # Errors
    /// [`EncodeError::NotInVersion`] in Godot 3; see [`Writer`].
    pub fn rect2i(&mut self, value: Rect2<i32>) -> Result<(), EncodeError> {
        self.integers::<4>(VariantType::Rect2i, |f| value.for_each_component(f))
    }

    /// A `Vector3i` (Godot 4).
    ///
    /// # Errors
    /// [`EncodeError::NotInVersion`] in Godot 3; see [`Writer`].
    pub fn vector3i(&mut self, value: Vector3<i32>) -> Result<(), EncodeError> {
        self.integers::<3>(VariantType::Vector3i, |f| value.for_each_component(f))
    }

    /// A `Vector4i` (Godot 4).
    ///
    /// # Errors
    /// [`EncodeError::NotInVersion`] in Godot 3; see [`Writer`].
    pub fn vector4i(&mut self, value: Vector4<i32>) -> Result<(), EncodeError> {
        self.integers::<4>(VariantType::Vector4i, |f| value.for_each_component(f))
    }

    /// A `Color` (always `f32`).
    ///
    /// # Errors
    /// See [`Writer`].
    pub fn color(&mut self, value: Color<f32>) -> Result<(), EncodeError> {
        let words: [u32; 4] = components(0, |f| value.for_each_component(f), |c: f32| c.to_bits());
        self.leaf(VariantType::Color, 0, words_le(&words).as_bytes())
    }

    /// A `NodePath`: whether it is absolute, its names, its subnames. The padding of its strings
    /// is written as zeros (Godot leaves it uninitialised).
    ///
    /// # Errors
    /// [`EncodeError::TooLarge`] for more than `i32::MAX` names; see [`Writer`].
    pub fn node_path<'s, N, S>(
        &mut self,
        absolute: bool,
        names: N,
        subnames: S,
    ) -> Result<(), EncodeError>
    where
        N: IntoIterator<Item = &'s str>,
        N::IntoIter: ExactSizeIterator,
        S: IntoIterator<Item = &'s str>,
        S::IntoIter: ExactSizeIterator,
    {
        let names = names.into_iter().map(str::as_bytes);
        self.node_path_bytes(absolute, names, subnames.into_iter().map(str::as_bytes))
    }

    /// [`Writer::node_path`] from the bytes of each string (a [`GdString`](crate::owned::GdString)'s).
    pub(crate) fn node_path_bytes<'s, N, S>(
        &mut self,
        absolute: bool,
        names: N,
        subnames: S,
    ) -> Result<(), EncodeError>
    where
        N: ExactSizeIterator<Item = &'s [u8]>,
        S: ExactSizeIterator<Item = &'s [u8]>,
    {
        let name_count = count_u32(names.len(), MAX_SIZE)?;
        let subname_count = count_u32(subnames.len(), MAX_SIZE)?;
        self.begin(VariantType::NodePath, 0)?;
        self.put_u32(name_count | 0x8000_0000)?;
        self.put_u32(subname_count)?;
        self.put_u32(u32::from(absolute))?;
        for name in names.chain(subnames) {
            work::add(1);
            self.put_string(name)?;
        }
        self.end();
        Ok(())
    }

    /// A `RID`. Godot 3 writes no id (the header alone).
    ///
    /// # Errors
    /// See [`Writer`].
    pub fn rid(&mut self, id: u64) -> Result<(), EncodeError> {
        match self.options.version() {
            Version::Godot3 => self.leaf(VariantType::Rid, 0, &[]),
            Version::Godot4 => self.leaf(VariantType::Rid, 0, &id.to_le_bytes()),
        }
    }

    /// A null object, which Godot writes as `Nil`.
    ///
    /// # Errors
    /// See [`Writer`].
    pub fn null_object(&mut self) -> Result<(), EncodeError> {
        self.nil()
    }

    /// An object by instance id (Godot's `EncodedObjectAsID`), header bit 16 set.
    ///
    /// # Errors
    /// See [`Writer`].
    pub fn object_id(&mut self, id: u64) -> Result<(), EncodeError> {
        self.leaf(VariantType::Object, FLAG_64, &id.to_le_bytes())
    }

    /// Opens a full object of class `class` with `property_count` properties; then give
    /// [`property_name`](Writer::property_name) and a value for each.
    ///
    /// # Errors
    /// [`EncodeError::FullObjectsNeeded`] without full objects; see [`Writer`].
    pub fn begin_object(&mut self, class: &str, property_count: u32) -> Result<(), EncodeError> {
        if !self.options.full_objects() {
            return Err(EncodeError::FullObjectsNeeded);
        }
        let count = count_u32(property_count as usize, MAX_SIZE)?;
        self.begin(VariantType::Object, 0)?;
        self.put_string(class.as_bytes())?;
        self.put_u32(count)?;
        self.open_container(count, true)
    }

    /// The name of the next property of the innermost open object.
    ///
    /// # Errors
    /// [`EncodeError::PropertyOrder`] when no property name is due; a full output.
    pub fn property_name(&mut self, name: &str) -> Result<(), EncodeError> {
        work::add(1);
        match self.top_mut() {
            Some(open) if open.properties && open.name_due => open.name_due = false,
            _ => return Err(EncodeError::PropertyOrder),
        }
        self.put_string(name.as_bytes())
    }

    /// A `Callable` (Godot 4): the header alone, as Godot writes every callable.
    ///
    /// # Errors
    /// [`EncodeError::NotInVersion`] in Godot 3; see [`Writer`].
    pub fn callable(&mut self) -> Result<(), EncodeError> {
        self.leaf(VariantType::Callable, 0, &[])
    }

    /// A `Signal` (Godot 4): its name and its object's instance id.
    ///
    /// # Errors
    /// [`EncodeError::NotInVersion`] in Godot 3; see [`Writer`].
    pub fn signal(&mut self, name: &str, object_id: u64) -> Result<(), EncodeError> {
        self.begin(VariantType::Signal, 0)?;
        self.put_string(name.as_bytes())?;
        self.out.write(&object_id.to_le_bytes())?;
        self.end();
        Ok(())
    }
}

impl<O: Output, const NESTING: usize> Writer<O, NESTING> {
    /// A real-valued math value of `K` components, which `visit` gives.
    #[inline]
    fn reals<R: Real, const K: usize>(
        &mut self,
        ty: VariantType,
        visit: impl FnOnce(&mut dyn FnMut(R)),
    ) -> Result<(), EncodeError> {
        match self.options.precision() {
            Precision::Single => {
                let words: [u32; K] = components(0, visit, |c: R| c.single().to_bits());
                self.leaf(ty, 0, words_le(&words).as_bytes())
            }
            Precision::Double => {
                let words: [u64; K] = components(0, visit, |c: R| c.double().to_bits());
                self.leaf(ty, FLAG_64, words_le(&words).as_bytes())
            }
        }
    }

    /// An integer math value of `K` components, which `visit` gives.
    #[inline]
    fn integers<const K: usize>(
        &mut self,
        ty: VariantType,
        visit: impl FnOnce(&mut dyn FnMut(i32)),
    ) -> Result<(), EncodeError> {
        let words: [u32; K] = components(0, visit, |c: i32| u32::from_ne_bytes(c.to_ne_bytes()));
        self.leaf(ty, 0, words_le(&words).as_bytes())
    }
}
