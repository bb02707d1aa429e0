//! The ground floor: what the bytes are, before any value is read from them.
//!
//! * [`read`]: bounds-checked reads at absolute positions, the only code that indexes the
//!   input. Every read fails with [`ErrorKind::Truncated`](error::ErrorKind::Truncated) instead
//!   of panicking.
//! * [`types`]: the variant types and their wire ids in each Godot version.
//! * [`utf8`]: which string bytes each Godot version accepts, which part of them is the text, and
//!   the code points the game reads from it (the one decoder, [`utf8::CodePoints`]).
//! * [`exact_float`]: bit-exact conversions between `f32` and `f64` components.
//! * [`identity`] (feature `alloc`): Godot's rules of dictionary key identity per version and
//!   per place, which the owned values and the text both follow.
//! * [`classes`]: the classes each engine can instantiate as full objects.
//! * [`error`] and [`options`]: the crate's one reading error, and the dialect and limits a read
//!   runs under; every layer above speaks them.
//! * [`work`]: units of work counted for the tests that prove time bounds (feature
//!   `work-counter`).
//!
//! Nothing here knows what a value is: this folder imports nothing from the rest of the crate,
//! and everything else stands on it. Each function is O(bytes it reads) with no allocation
//! (`utf8::godot3_shortest`, feature `alloc`, excepted: it returns a new vector).

pub(crate) mod classes;
pub(crate) mod error;
pub(crate) mod exact_float;
#[cfg(feature = "alloc")]
pub(crate) mod identity;
pub(crate) mod options;
pub(crate) mod read;
#[cfg(all(test, feature = "std"))]
pub(crate) mod sweep;
pub(crate) mod types;
pub(crate) mod utf8;
pub(crate) mod work;
