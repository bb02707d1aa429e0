//! Counting the work a read does, without a clock (feature `work-counter`).
//!
//! Every bounds-checked read of the input ([`crate::wire::read`]) adds one unit, plus one per
//! 64 bytes it hands out; the layers above add units where they loop without reading input
//! (key comparisons and hashing, sorting, resynchronisation). Tests and the work-bound fuzz
//! target run a public operation under [`measure`] and check that the units grow linearly
//! with the input: the time bounds stated in the docs are proved by these counts on generated
//! worst cases, not by timings. Without the feature, counting compiles to nothing.

#[cfg(feature = "work-counter")]
std::thread_local! {
    static UNITS: core::cell::Cell<u64> = const { core::cell::Cell::new(0) };
}

/// Adds `units` to this thread's count (nothing without the feature): for crates built on this
/// one (the Arrow export) that count their own loops the same way.
#[inline(always)]
pub fn add(units: usize) {
    #[cfg(feature = "work-counter")]
    UNITS.with(|count| count.set(count.get().saturating_add(units as u64)));
    #[cfg(not(feature = "work-counter"))]
    let _ = units;
}

/// Runs `f` and returns its result with the units of work it did on this thread.
///
/// One unit is one bounds-checked read of the input (plus one per 64 bytes read), one step of a
/// key comparison or hash, one comparison of a sort, and so on: a count proportional to the
/// time spent, reproducible on every machine.
///
/// ```
/// let bytes = include_bytes!("../../corpus/godot4/dict_nested.bin");
/// let ((), units) = gdvariant::work::measure(|| {
///     gdvariant::validate(bytes, gdvariant::Options::godot4()).unwrap();
/// });
/// assert!(units > 0 && units < 100);
/// ```
#[cfg(feature = "work-counter")]
pub fn measure<R>(f: impl FnOnce() -> R) -> (R, u64) {
    let before = UNITS.with(core::cell::Cell::get);
    let result = f();
    let after = UNITS.with(core::cell::Cell::get);
    (result, after.saturating_sub(before))
}
