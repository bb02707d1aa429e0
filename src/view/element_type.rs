//! [`ElementType`]: the declared element type of a typed `Array`, or the key or value type of a
//! typed `Dictionary` (Godot 4.3+ and 4.4+).

#[cfg(feature = "alloc")]
use super::container_type::ContainerType;
use super::container_type::{Admission, builtin_admission, class_admission};
#[cfg(feature = "alloc")]
use crate::wire::error::Result;
use crate::wire::types::VariantType;
#[cfg(feature = "alloc")]
use alloc::string::String;

/// What a typed container declares for its elements (an `Array`'s elements, a `Dictionary`'s keys
/// or values). The owned twin of [`ContainerType`], generic over the string so the encoder can
/// take a borrowed one: owned containers hold an `ElementType<String>`, the
/// [`Writer`](crate::Writer) takes an `ElementType<&str>`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
#[cfg_attr(feature = "serde", derive(::serde::Serialize, ::serde::Deserialize))]
pub enum ElementType<S> {
    /// Untyped (any `Variant`). Godot 3 containers are always untyped.
    #[default]
    Untyped,
    /// A builtin type, such as `Array[int]`. `Builtin(Nil)` means untyped, as in Godot.
    Builtin(VariantType),
    /// A class, such as `Array[Node]`. Godot writes `"EncodedObjectAsID"` here unless full
    /// objects are encoded.
    ClassName(S),
    /// A script, by its `res://` path (written only with full objects; otherwise Godot writes the
    /// class name `"EncodedObjectAsID"`).
    Script(S),
}

impl<S> ElementType<S> {
    /// Whether the container is untyped (`Untyped` or `Builtin(Nil)`).
    pub fn is_untyped(&self) -> bool {
        matches!(self, ElementType::Untyped | ElementType::Builtin(VariantType::Nil))
    }

    /// What Godot's decoder does with an element (or typed dictionary key) of type `element` in
    /// a container of this type: the rules of
    /// [`ContainerType::admission`](crate::view::ContainerType::admission). O(1).
    pub fn admission(&self, element: VariantType, allow_objects: bool) -> Admission {
        match self {
            ElementType::Untyped => Admission::Keep,
            ElementType::Builtin(declared) => builtin_admission(*declared, element),
            ElementType::ClassName(_) | ElementType::Script(_) => {
                class_admission(element, allow_objects)
            }
        }
    }

    /// A borrowed form, as the encoder takes it.
    pub fn as_deref(&self) -> ElementType<&str>
    where
        S: AsRef<str>,
    {
        match self {
            ElementType::Untyped => ElementType::Untyped,
            ElementType::Builtin(ty) => ElementType::Builtin(*ty),
            ElementType::ClassName(name) => ElementType::ClassName(name.as_ref()),
            ElementType::Script(path) => ElementType::Script(path.as_ref()),
        }
    }
}

#[cfg(feature = "alloc")]
impl ElementType<String> {
    /// The owned form of a lazily read container type.
    ///
    /// # Errors
    /// [`ErrorKind::InvalidUtf8`](crate::ErrorKind::InvalidUtf8) or
    /// [`ErrorKind::NotUnicode`](crate::ErrorKind::NotUnicode) for a class name or script path
    /// that is not text.
    pub fn from_ref(container: &ContainerType<'_>) -> Result<Self> {
        Ok(match container {
            ContainerType::Untyped => ElementType::Untyped,
            ContainerType::Builtin(ty) => ElementType::Builtin(*ty),
            ContainerType::ClassName(name) => ElementType::ClassName(String::from(name.to_str()?)),
            ContainerType::Script(path) => ElementType::Script(String::from(path.to_str()?)),
        })
    }
}
