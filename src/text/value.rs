//! The text of one value that is not a container: scalars, reals as Godot prints them, strings
//! and names, math values, node paths, RIDs, objects by id, callables, signals, packed arrays.

use super::*;

impl<'w, 'a, W: Write + ?Sized> TextWriter<'w, 'a, W> {
    /// Writes `value` whole, or the opening of a container and returns its frame. `count` is
    /// Godot 4's recursion count of the value (the containers above it).
    pub(super) fn value<'t>(
        &mut self,
        value: VariantRef<'a>,
        part: Option<Part<'t, 'a>>,
        count: u16,
    ) -> Result<Option<Frame<'t, 'a>>, TextError> {
        use VariantRef as V;
        let (open, close) = if self.godot3() { ("( ", " )") } else { ("(", ")") };
        let name = value.variant_type().name(self.version);
        match value {
            V::Nil | V::Object(ObjectRef::Null) => self.out.write_str("null")?,
            V::Bool(b) => self.out.write_str(if b { "true" } else { "false" })?,
            V::Int(i) => self.out.write_str(itoa::Buffer::new().format(i))?,
            V::Float(f) => match self.version {
                Version::Godot3 => float::write_float_godot3(self.out, f)?,
                Version::Godot4 => float::write_float_godot4(self.out, f)?,
            },
            V::String(s) => {
                self.out.write_char('"')?;
                self.escaped(s, Escape::Multiline)?;
                self.out.write_char('"')?;
            }
            V::StringName(s) => {
                self.out.write_str("&\"")?;
                self.escaped(s, Escape::C)?;
                self.out.write_char('"')?;
            }
            V::Vector2(_)
            | V::Rect2(_)
            | V::Vector3(_)
            | V::Transform2D(_)
            | V::Vector4(_)
            | V::Plane(_)
            | V::Quaternion(_)
            | V::Aabb(_)
            | V::Basis(_)
            | V::Transform3D(_)
            | V::Projection(_)
            | V::Color(_) => {
                let components = order::real_components(&value).unwrap_or_else(Reals16::empty);
                self.out.write_str(name)?;
                self.out.write_str(open)?;
                self.reals(components.as_slice())?;
                self.out.write_str(close)?;
            }
            V::Vector2i(v) => write_ints(self.out, name, open, close, |f| v.for_each_component(f))?,
            V::Vector3i(v) => write_ints(self.out, name, open, close, |f| v.for_each_component(f))?,
            V::Vector4i(v) => write_ints(self.out, name, open, close, |f| v.for_each_component(f))?,
            V::Rect2i(v) => write_ints(self.out, name, open, close, |f| v.for_each_component(f))?,
            V::NodePath(path) => {
                self.out.write_str("NodePath(\"")?;
                if node_path_absolute(&path, self.version) {
                    self.out.write_char('/')?;
                }
                for (i, part) in path.names().enumerate() {
                    if i > 0 {
                        self.out.write_char('/')?;
                    }
                    self.escaped(part?, Escape::C)?;
                }
                // Godot 4 writes the subnames joined by `:` after a `:` when that is not empty.
                let lone_empty = self.version == Version::Godot4
                    && path.subname_count() == 1
                    && path.subnames().all(|part| part.is_ok_and(|p| p.text_bytes().is_empty()));
                for part in path.subnames().filter(|_| !lone_empty) {
                    self.out.write_char(':')?;
                    self.escaped(part?, Escape::C)?;
                }
                self.out.write_str("\")")?;
            }
            V::Rid(id) => match (self.version, id) {
                (Version::Godot3, _) if self.display => self.out.write_str("RID()")?,
                (Version::Godot3, _) => {}
                (Version::Godot4, None | Some(0)) => self.out.write_str("RID()")?,
                (Version::Godot4, Some(id)) => write!(self.out, "RID({})", id as i64)?,
            },
            V::Object(_) | V::Dictionary(_) | V::Array(_) => {
                return self.container(value, part, count);
            }
            V::Callable => self.out.write_str("Callable()")?,
            V::Signal(_) => self.out.write_str("Signal()")?,
            V::PackedByteArray(bytes) => {
                self.list_open(name)?;
                for (i, byte) in bytes.iter().enumerate() {
                    self.separator(i)?;
                    self.out.write_str(itoa::Buffer::new().format(*byte))?;
                }
                self.list_close()?;
            }
            V::PackedInt32Array(p) => {
                self.list_open(name)?;
                for (i, n) in p.iter().enumerate() {
                    self.separator(i)?;
                    self.out.write_str(itoa::Buffer::new().format(n))?;
                }
                self.list_close()?;
            }
            V::PackedInt64Array(p) => {
                self.list_open(name)?;
                for (i, n) in p.iter().enumerate() {
                    self.separator(i)?;
                    self.out.write_str(itoa::Buffer::new().format(n))?;
                }
                self.list_close()?;
            }
            V::PackedFloat32Array(p) => {
                self.list_open(name)?;
                for (i, n) in p.iter().enumerate() {
                    self.separator(i)?;
                    self.real(f64::from(n))?;
                }
                self.list_close()?;
            }
            V::PackedFloat64Array(p) => {
                self.list_open(name)?;
                for (i, n) in p.iter().enumerate() {
                    self.separator(i)?;
                    self.real(n)?;
                }
                self.list_close()?;
            }
            V::PackedStringArray(strings) => {
                self.list_open(name)?;
                for (i, s) in strings.iter().enumerate() {
                    self.separator(i)?;
                    self.out.write_char('"')?;
                    self.escaped(s?, Escape::C)?;
                    self.out.write_char('"')?;
                }
                self.list_close()?;
            }
            V::PackedColorArray(colors) => {
                self.list_open(name)?;
                for (i, color) in colors.iter().enumerate() {
                    self.separator(i)?;
                    self.reals(order::color_components(color).as_slice())?;
                }
                self.list_close()?;
            }
            V::PackedVector2Array(_) | V::PackedVector3Array(_) | V::PackedVector4Array(_) => {
                self.list_open(name)?;
                let mut elements = PackedRealsIter::new(&value);
                let mut components = Reals16::empty();
                let mut i = 0usize;
                while elements.next_into(&mut components) {
                    self.separator(i)?;
                    self.reals(components.as_slice())?;
                    i = i.saturating_add(1);
                }
                self.list_close()?;
            }
        }
        Ok(None)
    }
}
