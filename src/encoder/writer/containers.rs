//! The [`Writer`]'s containers: untyped and typed arrays and dictionaries, and the
//! type information a typed container's header carries.

use super::*;

impl<O: Output, const NESTING: usize> Writer<O, NESTING> {
    /// Opens an untyped `Array` of `count` elements.
    ///
    /// # Errors
    /// [`EncodeError::TooLarge`] past `i32::MAX` elements; see [`Writer`].
    pub fn begin_array(&mut self, count: usize) -> Result<(), EncodeError> {
        self.begin_typed_array(ElementType::Untyped, count)
    }

    /// Opens a typed `Array` (Godot 4.3+) of `count` elements.
    ///
    /// # Errors
    /// [`EncodeError::TypedContainerNotInVersion`] for a typed array in Godot 3; see
    /// [`Writer::begin_array`].
    pub fn begin_typed_array(
        &mut self,
        element_type: ElementType<&str>,
        count: usize,
    ) -> Result<(), EncodeError> {
        let count = count_u32(count, MAX_SIZE)?;
        let (kind, info) = self.type_info(element_type)?;
        let id = self.begin_checked(VariantType::Array)?;
        self.put_header_and_count(u32::from(id) | kind << 16, [info, TypeInfo::None], count)?;
        self.open_container(count, false)
    }

    /// Opens an untyped `Dictionary` of `count` entries; then give key, value, key, value, ...
    ///
    /// # Errors
    /// [`EncodeError::TooLarge`] past `i32::MAX` entries; see [`Writer`].
    pub fn begin_dictionary(&mut self, count: usize) -> Result<(), EncodeError> {
        self.begin_typed_dictionary(ElementType::Untyped, ElementType::Untyped, count)
    }

    /// Opens a typed `Dictionary` (Godot 4.4+) of `count` entries.
    ///
    /// # Errors
    /// [`EncodeError::TypedContainerNotInVersion`] for a typed dictionary in Godot 3; see
    /// [`Writer::begin_dictionary`].
    pub fn begin_typed_dictionary(
        &mut self,
        key_type: ElementType<&str>,
        value_type: ElementType<&str>,
        count: usize,
    ) -> Result<(), EncodeError> {
        let count = count_u32(count, MAX_SIZE)?;
        let (key_kind, key_info) = self.type_info(key_type)?;
        let (value_kind, value_info) = self.type_info(value_type)?;
        let id = self.begin_checked(VariantType::Dictionary)?;
        let header = u32::from(id) | key_kind << 16 | value_kind << 18;
        self.put_header_and_count(header, [key_info, value_info], count)?;
        self.open_container(count.saturating_mul(2), false)
    }
}

impl<O: Output, const NESTING: usize> Writer<O, NESTING> {
    /// The kind bits and type information of a typed container's element type.
    fn type_info<'s>(&self, ty: ElementType<&'s str>) -> Result<(u32, TypeInfo<'s>), EncodeError> {
        let version = self.options.version();
        if ty.is_untyped() {
            return Ok((0, TypeInfo::None));
        }
        if version == Version::Godot3 {
            return Err(EncodeError::TypedContainerNotInVersion);
        }
        let full = self.options.full_objects();
        Ok(match ty {
            ElementType::Builtin(builtin) => {
                let id = builtin
                    .id(version)
                    .ok_or(EncodeError::NotInVersion { ty: builtin, version })?;
                (1, TypeInfo::Id(u32::from(id)))
            }
            ElementType::ClassName(name) if full => (2, TypeInfo::Name(name)),
            ElementType::Script(path) if full => (3, TypeInfo::Name(path)),
            _ => (2, TypeInfo::Name(ENCODED_OBJECT_AS_ID)),
        })
    }

    fn put_type_info(&mut self, info: TypeInfo<'_>) -> Result<(), EncodeError> {
        match info {
            TypeInfo::None => Ok(()),
            TypeInfo::Id(id) => self.put_u32(id),
            TypeInfo::Name(name) => self.put_string(name.as_bytes()),
        }
    }

    /// A container's header, its type information, its count; header and count at once when
    /// it is untyped.
    #[inline]
    fn put_header_and_count(
        &mut self,
        header: u32,
        infos: [TypeInfo<'_>; 2],
        count: u32,
    ) -> Result<(), EncodeError> {
        if let [TypeInfo::None, TypeInfo::None] = infos {
            return self.out.write(&pair(header, count));
        }
        self.put_u32(header)?;
        for info in infos {
            self.put_type_info(info)?;
        }
        self.put_u32(count)
    }
}

/// Type information written before a typed container's count.
#[derive(Clone, Copy)]
enum TypeInfo<'s> {
    None,
    Id(u32),
    Name(&'s str),
}
