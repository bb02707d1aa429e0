//! `Signal` (Godot 4): a name and the instance id of the object that owns it.

use super::string::GdStr;

/// A borrowed Signal. Godot writes the signal name then the object's u64 instance id.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SignalRef<'a> {
    name: GdStr<'a>,
    object_id: u64,
}

impl<'a> SignalRef<'a> {
    pub(crate) fn new(name: GdStr<'a>, object_id: u64) -> Self {
        SignalRef { name, object_id }
    }

    /// The signal's name.
    pub fn name(&self) -> GdStr<'a> {
        self.name
    }

    /// The owner's instance id as 64 raw bits (Godot sets bit 63 on reference-counted objects).
    /// 0 for a null signal.
    pub fn object_id(&self) -> u64 {
        self.object_id
    }
}
