//! Time bounds proved by counting work (feature `work-counter`), not by a clock.
//!
//! A worst-case input is generated at two sizes; the operation's units of work
//! (`gdvariant::work::measure`) must grow no faster than the input (with room for a log factor),
//! and stay within a constant factor of `validate`'s units on the same bytes.

use gdvariant::Options;

/// The units of work `op` does on this thread.
pub fn units(op: impl FnOnce()) -> u64 {
    gdvariant::work::measure(op).1
}

/// The units of work `validate` does on `bytes`, whatever its verdict.
pub fn validate_units(bytes: &[u8], options: Options) -> u64 {
    units(|| {
        let _ = gdvariant::validate(bytes, options);
    })
}

/// One measurement of [`assert_linear`].
#[derive(Debug)]
pub struct Measured {
    pub size: usize,
    pub bytes: usize,
    pub units: u64,
    pub validate_units: u64,
}

/// Runs `op` on `make(size)` for `size` = `small` and `4 * small`, and asserts that
/// - the work grows at most 6x when the input grows 4x (linear, or n log n), and
/// - the work is at most `factor` times `validate`'s on the same bytes, plus 10,000 units.
///
/// `make` returns the bytes and the options to read them with. Returns both measurements.
pub fn assert_linear(
    name: &str,
    small: usize,
    factor: u64,
    make: impl Fn(usize) -> (Vec<u8>, Options),
    op: impl Fn(&[u8], Options),
) -> [Measured; 2] {
    let measure = |size: usize| {
        let (bytes, options) = make(size);
        let validate_units = validate_units(&bytes, options);
        let units = units(|| op(&bytes, options));
        Measured { size, bytes: bytes.len(), units, validate_units }
    };
    let a = measure(small);
    let b = measure(small * 4);
    assert!(b.bytes >= a.bytes * 3, "{name}: the generator does not scale: {a:?} {b:?}");
    for m in [&a, &b] {
        assert!(
            m.units <= factor * m.validate_units + 10_000,
            "{name}: {} units of work on {} bytes, more than {factor}x validate's {}",
            m.units,
            m.bytes,
            m.validate_units
        );
    }
    let growth = b.units as f64 / a.units.max(1) as f64;
    let bytes_growth = b.bytes as f64 / a.bytes as f64;
    assert!(
        growth <= bytes_growth * 1.5,
        "{name}: work grew {growth:.2}x for {bytes_growth:.2}x the bytes: {a:?} {b:?}"
    );
    [a, b]
}

/// Runs `f` on a thread with a 256 KiB stack (the bound every public operation must fit in,
/// at Godot's deepest accepted nesting) and returns its result.
pub fn on_small_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new().stack_size(256 * 1024).spawn(f).unwrap().join().unwrap()
}
