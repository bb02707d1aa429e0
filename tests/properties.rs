//! Property tests over generated values (feature `arbitrary`): for both Godot versions, with and
//! without full objects, in single and (Godot 4) double precision, every generated value
//! encodes, decodes back the same bit for bit, encodes again to the same bytes, validates,
//! parses as a prefix of exactly its length, is a multiple of 4 bytes, and encodes into a fixed
//! buffer exactly when the buffer is large enough. Typed containers hold only elements Godot
//! keeps as they are.
//!
//! Driven by proptest: each case's input is 0 to 4095 bytes that `arbitrary` turns into a
//! value. The runs are deterministic (each property has a fixed seed, so CI sees the same cases
//! every time), and a failure is shrunk (fewer and smaller input bytes: a smaller value) before
//! it is reported with the property's message, the smallest failing value and its input bytes.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::arithmetic_side_effects
)]

use std::collections::BTreeMap;

use std::cell::{Cell, RefCell};

use arbitrary::{Arbitrary, Unstructured};
use gdvariant::{
    EncodeOptions, Options, Variant, VariantRef, VariantType, Version, encoder::EncodeError,
    encoder::SliceOutput, math::Precision, owned::Array, owned::Dictionary, owned::Object,
    view::Admission, view::ObjectRef,
};
use proptest::prelude::{Strategy, any};
use proptest::test_runner::{Config as RunConfig, RngSeed, TestCaseError, TestRunner};

/// Cases per configuration.
const CASES: u32 = 1000;

/// The input of one case: 0 to 4095 bytes (the length uniform), each uniform.
fn input() -> impl Strategy<Value = Vec<u8>> {
    proptest::collection::vec(any::<u8>(), 0..4096)
}

/// One configuration: what is generated and how it is encoded and read.
#[derive(Clone, Copy, Debug)]
struct Config {
    name: &'static str,
    encode: EncodeOptions,
}

impl Config {
    fn read(&self) -> Options {
        Options::new(self.encode.version()).with_allow_objects(self.encode.full_objects())
    }
}

fn configs() -> Vec<Config> {
    let g3 = EncodeOptions::godot3();
    let g4 = EncodeOptions::godot4();
    vec![
        Config { name: "godot3", encode: g3 },
        Config { name: "godot3 full objects", encode: g3.with_full_objects(true) },
        Config { name: "godot4", encode: g4 },
        Config { name: "godot4 full objects", encode: g4.with_full_objects(true) },
        Config { name: "godot4 double", encode: g4.with_precision(Precision::Double) },
        Config {
            name: "godot4 double full objects",
            encode: g4.with_precision(Precision::Double).with_full_objects(true),
        },
    ]
}

/// Runs `property` on `cases` values made by `generate` from the inputs of a run seeded with
/// `seed`, and panics with the shrunk failure (the message, the value, its input bytes).
fn check<T: std::fmt::Debug>(
    what: &str,
    seed: u64,
    cases: u32,
    generate: impl Fn(&[u8]) -> arbitrary::Result<T>,
    property: impl Fn(&T) -> Result<(), String>,
) {
    let config = RunConfig {
        cases,
        rng_seed: RngSeed::Fixed(seed),
        failure_persistence: None,
        // A failing case of 4095 bytes shrinks within this many more runs.
        max_shrink_iters: 20_000,
        ..RunConfig::default()
    };
    let result = TestRunner::new(config).run(&input(), |bytes| {
        let value =
            generate(&bytes).map_err(|e| TestCaseError::fail(format!("generation failed: {e}")))?;
        property(&value)
            .map_err(|message| TestCaseError::fail(format!("{message}\nvalue: {value:#?}")))
    });
    if let Err(failure) = result {
        panic!("{what}: {failure}");
    }
}

/// Every round-trip property of one value under `config`; returns its encoding.
fn round_trip(value: &Variant, config: Config) -> Result<Vec<u8>, String> {
    let bytes = gdvariant::encode(value, config.encode).map_err(|e| format!("encode: {e}"))?;
    if bytes.len() % 4 != 0 {
        return Err(format!("{} bytes, not a multiple of 4", bytes.len()));
    }
    gdvariant::validate(&bytes, config.read()).map_err(|e| format!("validate: {e}"))?;
    let prefix =
        gdvariant::parse_prefix(&bytes, config.read()).map_err(|e| format!("prefix: {e}"))?;
    if prefix.len() != bytes.len() {
        return Err(format!("parse_prefix: {} of {} bytes", prefix.len(), bytes.len()));
    }
    let decoded = gdvariant::decode(&bytes, config.read()).map_err(|e| format!("decode: {e}"))?;
    if !decoded.same(value) {
        return Err(format!("decoded differently:\n{decoded:#?}"));
    }
    let again =
        gdvariant::encode(&decoded, config.encode).map_err(|e| format!("re-encode: {e}"))?;
    if again != bytes {
        return Err("re-encoding gave other bytes".into());
    }
    kept_by_godot(gdvariant::parse(&bytes, config.read()).unwrap(), config.read().allow_objects())?;
    Ok(bytes)
}

/// Every element (and key) of every typed container is one Godot keeps as it is (or, with full
/// objects, an object Godot checks against its class, which the generator makes of that class).
fn kept_by_godot(value: VariantRef<'_>, allow_objects: bool) -> Result<(), String> {
    let acceptable = |admission| {
        matches!(admission, Admission::Keep)
            || (allow_objects && admission == Admission::ClassCheck)
    };
    match value {
        VariantRef::Array(array) => {
            let ty = array.element_type().unwrap();
            for element in array.iter() {
                let element = element.unwrap();
                let admission = ty.admission(element.variant_type(), allow_objects);
                if !acceptable(admission) {
                    return Err(format!("{:?} in {ty:?}: {admission:?}", element.variant_type()));
                }
                kept_by_godot(element, allow_objects)?;
            }
        }
        VariantRef::Dictionary(dictionary) => {
            let key_type = dictionary.key_type().unwrap();
            let value_type = dictionary.value_type().unwrap();
            for entry in dictionary.iter() {
                let (key, value) = entry.unwrap();
                for (ty, element) in [(key_type, key), (value_type, value)] {
                    let admission = ty.admission(element.variant_type(), allow_objects);
                    if !acceptable(admission) {
                        return Err(format!(
                            "{:?} in {ty:?}: {admission:?}",
                            element.variant_type()
                        ));
                    }
                }
                kept_by_godot(key, allow_objects)?;
                kept_by_godot(value, allow_objects)?;
            }
        }
        VariantRef::Object(ObjectRef::Full(object)) => {
            for property in object.properties() {
                kept_by_godot(property.unwrap().1.value(), allow_objects)?;
            }
        }
        _ => {}
    }
    Ok(())
}

/// Encoding into a fixed buffer of every size below the value's length fails with
/// `OutputFull`, and at its length gives the same bytes.
fn fixed_outputs(value: &Variant, expected: &[u8], options: EncodeOptions) -> Result<(), String> {
    let mut buf = vec![0u8; expected.len()];
    for size in 0..expected.len() {
        match value.encode_into(SliceOutput::new(&mut buf[..size]), options) {
            Err(EncodeError::OutputFull { needed, capacity })
                if capacity == size && needed > size => {}
            other => {
                return Err(format!("buffer of {size}: {:?}", other.map(|o| o.as_bytes().len())));
            }
        }
    }
    let out = value
        .encode_into(SliceOutput::new(&mut buf), options)
        .map_err(|e| format!("buffer of {}: {e}", expected.len()))?;
    if out.as_bytes() != expected {
        return Err("a fixed buffer got other bytes".into());
    }
    Ok(())
}

/// What a run saw, to check the generator reaches everything it should.
#[derive(Default)]
struct Seen {
    types: BTreeMap<VariantType, usize>,
    max_depth: usize,
    typed_containers: usize,
    full_objects: usize,
    nans: usize,
    double_width_reals: usize,
    longest: usize,
}

impl Seen {
    fn visit(&mut self, value: &Variant, depth: usize) {
        *self.types.entry(value.variant_type()).or_default() += 1;
        self.max_depth = self.max_depth.max(depth);
        match value {
            Variant::Float(f) if f.is_nan() => self.nans += 1,
            Variant::Vector2(v) if !v.x.is_nan() && f64::from(v.x as f32) != v.x => {
                self.double_width_reals += 1;
            }
            Variant::Array(array) => {
                self.typed_containers += usize::from(!array.element_type.is_untyped());
                array.iter().for_each(|e| self.visit(e, depth + 1));
            }
            Variant::Dictionary(dictionary) => {
                self.typed_containers += usize::from(
                    !dictionary.key_type.is_untyped() || !dictionary.value_type.is_untyped(),
                );
                for (key, value) in dictionary.iter() {
                    self.visit(key, depth + 1);
                    self.visit(value, depth + 1);
                }
            }
            Variant::Object(Object::Full(object)) => {
                self.full_objects += 1;
                object.properties.iter().for_each(|(_, v)| self.visit(v, depth + 1));
            }
            _ => {}
        }
    }
}

/// Every type a version has, for the coverage check.
fn all_types(version: Version) -> Vec<VariantType> {
    (0..=255).filter_map(|id| VariantType::from_id(version, id)).collect()
}

#[test]
fn generated_values_round_trip_in_every_configuration() {
    for (index, config) in configs().into_iter().enumerate() {
        let seen = RefCell::new(Seen::default());
        let case = Cell::new(0usize);
        let generate =
            |bytes: &[u8]| Variant::arbitrary_for(&mut Unstructured::new(bytes), config.encode);
        check(config.name, 0xC0FF_EE00 + index as u64, CASES, generate, |value| {
            let bytes = round_trip(value, config)?;
            // The fixed-buffer check is quadratic: every 8th value, and short ones.
            if case.get() % 8 == 0 || bytes.len() <= 256 {
                fixed_outputs(value, &bytes, config.encode)?;
            }
            case.set(case.get() + 1);
            let mut seen = seen.borrow_mut();
            seen.visit(value, 0);
            seen.longest = seen.longest.max(bytes.len());
            Ok(())
        });
        let seen = seen.into_inner();
        // The generator reaches what it should: every type of the version (Object::Null aside:
        // it reads back as Nil), nesting to its limit and no further, and the special cases.
        let version = config.encode.version();
        for ty in all_types(version) {
            assert!(seen.types.contains_key(&ty), "{}: no {ty:?} generated", config.name);
        }
        assert_eq!(seen.max_depth, usize::from(Variant::ARBITRARY_MAX_DEPTH), "{}", config.name);
        assert!(seen.nans > 0, "{}: no NaN float", config.name);
        assert_eq!(seen.typed_containers > 0, version == Version::Godot4, "{}", config.name);
        assert_eq!(seen.full_objects > 0, config.encode.full_objects(), "{}", config.name);
        let double = config.encode.precision() == Precision::Double;
        assert_eq!(seen.double_width_reals > 0, double, "{}", config.name);
        assert!(seen.longest < 64 << 10, "{}: a value of {} bytes", config.name, seen.longest);
    }
}

#[test]
fn godot3_ignores_the_precision_option() {
    let double = EncodeOptions::godot3().with_precision(Precision::Double);
    check(
        "godot3 double",
        0x3D0B,
        CASES,
        |bytes| Variant::arbitrary_for(&mut Unstructured::new(bytes), EncodeOptions::godot3()),
        |v| {
            let single =
                gdvariant::encode(v, EncodeOptions::godot3()).map_err(|e| e.to_string())?;
            let with_double = gdvariant::encode(v, double).map_err(|e| e.to_string())?;
            if single != with_double {
                Err("the precision changed Godot 3 bytes".into())
            } else {
                Ok(())
            }
        },
    );
}

#[test]
fn the_plain_arbitrary_impls_target_godot4_defaults() {
    let config = configs()[2];
    assert_eq!(config.name, "godot4");
    // Each impl from the same input bytes.
    let generate = |bytes: &[u8]| -> arbitrary::Result<_> {
        let u = || Unstructured::new(bytes);
        let values = [
            ("Variant", Variant::arbitrary(&mut u())?),
            ("Array", Array::arbitrary(&mut u()).map(Variant::from)?),
            ("Dictionary", Dictionary::arbitrary(&mut u()).map(Variant::from)?),
            ("Object", Object::arbitrary(&mut u()).map(Variant::Object)?),
            ("NodePath", gdvariant::owned::NodePath::arbitrary(&mut u()).map(Variant::from)?),
            ("Signal", gdvariant::owned::Signal::arbitrary(&mut u()).map(Variant::from)?),
        ];
        Ok(values)
    };
    check("plain impls", 0xA4B1, CASES, generate, |values| {
        for (what, value) in values {
            round_trip(value, config).map_err(|e| format!("{what}: {e}"))?;
        }
        // An object without full objects is an instance id, never 0 (which reads back as null).
        match &values[3].1 {
            Variant::Object(Object::Id(id)) if *id != 0 => Ok(()),
            other => Err(format!("Object: {other:?}")),
        }
    });
}

#[test]
fn containers_and_objects_generated_alone_round_trip() {
    for (index, config) in configs().into_iter().enumerate() {
        let generate = |bytes: &[u8]| -> arbitrary::Result<_> {
            let u = || Unstructured::new(bytes);
            Ok([
                Array::arbitrary_for(&mut u(), config.encode).map(Variant::from)?,
                Dictionary::arbitrary_for(&mut u(), config.encode).map(Variant::from)?,
                Object::arbitrary_for(&mut u(), config.encode).map(Variant::Object)?,
            ])
        };
        check(config.name, 0x0B7E + index as u64, 60, generate, |values| {
            values.iter().try_for_each(|v| round_trip(v, config).map(|_| ()))
        });
    }
}

#[test]
fn a_lower_depth_limit_bounds_the_generated_nesting() {
    for max_depth in 0..3u16 {
        let options = EncodeOptions::godot4().with_max_depth(max_depth).with_full_objects(true);
        let deepest = Cell::new(0);
        check(
            "depth",
            0xDE97 + u64::from(max_depth),
            100,
            |bytes| Variant::arbitrary_for(&mut Unstructured::new(bytes), options),
            |value| {
                gdvariant::encode(value, options).map_err(|e| e.to_string())?;
                let mut seen = Seen::default();
                seen.visit(value, 0);
                deepest.set(deepest.get().max(seen.max_depth));
                Ok(())
            },
        );
        assert_eq!(deepest.get(), usize::from(max_depth));
    }
}

#[test]
fn empty_input_gives_nil() {
    let mut u = Unstructured::new(&[]);
    assert!(Variant::arbitrary_for(&mut u, EncodeOptions::godot4()).unwrap().same(&Variant::Nil));
    let mut u = Unstructured::new(&[]);
    assert!(matches!(Object::arbitrary(&mut u).unwrap(), Object::Id(1)));
}
