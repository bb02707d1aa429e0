//! The text of containers: arrays and dictionaries (their entries in the order Godot prints
//! them), typed containers' types, and full objects with their properties.

use super::*;

impl<'w, 'a, W: Write + ?Sized> TextWriter<'w, 'a, W> {
    /// An array, a dictionary or an object: writes its opening (or all of it when it is empty,
    /// null, or past Godot 4's nesting cut-off) and returns its frame.
    /// `part` is the container's place on the tape (every array, dictionary and full object
    /// has one).
    pub(super) fn container<'t>(
        &mut self,
        value: VariantRef<'a>,
        part: Option<Part<'t, 'a>>,
        count: u16,
    ) -> Result<Option<Frame<'t, 'a>>, TextError> {
        let cut = self.version == Version::Godot4 && count > MAX_RECURSION;
        let child = count.saturating_add(1);
        match value {
            VariantRef::Array(array) => {
                let element_type = array.element_type()?;
                let typed = element_type != ContainerType::Untyped;
                if typed {
                    self.out.write_str("Array[")?;
                    self.container_type(element_type, array.origin().0.options)?;
                    self.out.write_str("](")?;
                }
                let close = match (self.godot3(), typed) {
                    (true, _) => " ]",
                    (false, false) => "]",
                    (false, true) => "])",
                };
                if cut {
                    self.out.write_str(if typed { "[])" } else { "[]" })?;
                    return Ok(None);
                }
                self.out.write_str(if self.godot3() { "[ " } else { "[" })?;
                let Some(part) = part else { return Ok(None) };
                Ok(Some(Frame::Array { items: part.children(), first: true, close, count: child }))
            }
            VariantRef::Dictionary(dictionary) => {
                let (keys, values) = dictionary.types()?;
                let typed = keys != ContainerType::Untyped || values != ContainerType::Untyped;
                if typed {
                    let options = dictionary.origin().0.options;
                    self.out.write_str("Dictionary[")?;
                    self.container_type(keys, options)?;
                    self.out.write_str(", ")?;
                    self.container_type(values, options)?;
                    self.out.write_str("](")?;
                }
                let end = if typed { ")" } else { "" };
                if cut || (dictionary.is_empty() && !self.godot3()) {
                    self.out.write_str("{}")?;
                    self.out.write_str(end)?;
                    return Ok(None);
                }
                if dictionary.is_empty() {
                    self.out.write_str("{\n\n}")?;
                    return Ok(None);
                }
                self.out.write_str("{\n")?;
                let Some(part) = part else { return Ok(None) };
                Ok(Some(Frame::Dictionary {
                    entries: self.print_order(part, dictionary.len())?.into_iter(),
                    pending: None,
                    first: true,
                    close: if typed { "\n})" } else { "\n}" },
                    count: child,
                }))
            }
            VariantRef::Object(ObjectRef::Id(id)) => {
                if cut {
                    self.out.write_str("null")?;
                } else {
                    writeln!(
                        self.out,
                        "Object(EncodedObjectAsID,\"object_id\":{},\"script\":null)",
                        id as i64
                    )?;
                }
                Ok(None)
            }
            VariantRef::Object(ObjectRef::Full(object)) => {
                if cut {
                    self.out.write_str("null")?;
                    return Ok(None);
                }
                self.out.write_str("Object(")?;
                self.raw_text(object.class_name())?;
                self.out.write_char(',')?;
                let Some(part) = part else { return Ok(None) };
                Ok(Some(Frame::Object { properties: part.children(), first: true, count: child }))
            }
            _ => {
                self.out.write_str("null")?;
                Ok(None)
            }
        }
    }

    /// The entries of the dictionary at `part` in print order: repeated keys merged (first
    /// position, last value), sorted as Godot sorts them; `None` for a value Godot does not find.
    /// `count` is the dictionary's entry count (checked against the input's length when it was
    /// parsed), room for which is made up front.
    pub(super) fn print_order<'t>(
        &mut self,
        part: Part<'t, 'a>,
        count: usize,
    ) -> Result<sort::Sorted<'a, Part<'t, 'a>, Part<'t, 'a>>, Error> {
        let mut children = part.children();
        let mut keys = Vec::with_capacity(count);
        let mut entries = Vec::with_capacity(count);
        while let (Some(key), Some(value)) = (children.next(), children.next()) {
            keys.push(key);
            entries.push((key, value));
        }
        sorted(&keys, entries, &mut self.numbers, self.version)
    }

    /// The element, key or value type of a typed container. Without full objects Godot's
    /// decoder makes every object type (`Object`, a class, a script) `EncodedObjectAsID`.
    pub(super) fn container_type(
        &mut self,
        ty: ContainerType<'_>,
        options: Options,
    ) -> Result<(), TextError> {
        let object = matches!(
            ty,
            ContainerType::Builtin(VariantType::Object)
                | ContainerType::ClassName(_)
                | ContainerType::Script(_)
        );
        if object && !options.allow_objects() {
            self.out.write_str("EncodedObjectAsID")?;
            return Ok(());
        }
        match ty {
            ContainerType::Untyped => self.out.write_str("Variant")?,
            ContainerType::Builtin(ty) => self.out.write_str(ty.name(self.version))?,
            ContainerType::ClassName(name) => self.raw_text(name)?,
            ContainerType::Script(path) => self.resource(path)?,
        }
        Ok(())
    }

    /// A resource Godot loaded from `path`: `Resource("res://...")` (Godot adds the `uid://`
    /// when the project has one).
    pub(super) fn resource(&mut self, path: GdStr<'_>) -> Result<(), TextError> {
        self.out.write_str("Resource(\"")?;
        self.escaped(path, Escape::Multiline)?;
        self.out.write_str("\")")?;
        Ok(())
    }
}
