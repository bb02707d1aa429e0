//! Shared test support: the real-engine corpora, and a description of decoded values in the
//! corpora's own `expected` JSON shape, so values are compared field by field with what Godot
//! reported (floats as exact bit patterns).
#![allow(
    dead_code,
    clippy::arithmetic_side_effects,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

#[cfg(feature = "work-counter")]
pub mod work;

use std::path::{Path, PathBuf};

use gdvariant::math::RealValue;
use gdvariant::packed::PackedElement;
use gdvariant::{
    Options, VariantRef, VariantType, Version, math::Reals, packed::Packed, packed::PackedReals,
    view::ContainerType, view::ObjectRef,
};
use serde_json::{Value, json};

mod compare;
mod corpus;
mod describe;
mod godot;

// Each test target uses only some of these; the items of all are `common::NAME`.
#[allow(unused_imports)]
pub use compare::*;
#[allow(unused_imports)]
pub use corpus::*;
#[allow(unused_imports)]
pub use describe::*;
#[allow(unused_imports)]
pub use godot::*;
