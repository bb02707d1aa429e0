//! The relay's own units of work (feature `work-counter`, for the tests that prove its time
//! bounds by counting): one per read, message and ended session, added to the core's counter
//! (`gdvariant::work`), which also counts each value's validation. Without the feature, nothing.

/// Adds `units` to this thread's count (nothing without `work-counter`).
#[inline]
pub(crate) fn count(units: usize) {
    #[cfg(feature = "work-counter")]
    gdvariant::work::add(units);
    #[cfg(not(feature = "work-counter"))]
    let _ = units;
}
