//! Containers while they are decoded: opening one (its count checked against the bytes
//! left, typed containers' element types), placing each finished child in it (dictionary keys
//! by Godot's identity, hashed once), and closing it into its owned value.

use super::*;

/// The bytes reserved for one entry of a dictionary: the entry, its key's hash, and its share
/// of a hash index (at most 2 buckets of 9 bytes: the index is at most 7/8 full).
pub(super) const ENTRY_BYTES: usize = size_of::<(Variant, Variant)>() + 8 + 18;

/// A container about to be filled with `items` values (keys and values, for a dictionary),
/// sized for all of them (see [`Decoder::reserve`]). `hashed`: its own hash is wanted.
///
/// `header` is the container's header word: when its type bits say untyped, the type
/// information is not read again.
pub(super) fn open(
    decoder: &mut Decoder<'_>,
    value: &VariantRef<'_>,
    items: u32,
    header: u32,
    hashed: bool,
) -> Result<Open> {
    let version = decoder.options.version();
    let left = items;
    let items = usize::try_from(items).unwrap_or(usize::MAX);
    let (game_view, allow_objects) = (decoder.options.game_view(), decoder.options.allow_objects());
    let as_game = |declared: ElementType<String>| {
        if game_view { typed::game_type(declared, allow_objects) } else { declared }
    };
    // The container, whether it is a typed array, and its starting hash (see `Open::hash`).
    let (container, is_typed, hash) = match value {
        VariantRef::Array(array) => {
            let is_typed = typed(header, version, 16);
            if is_typed {
                let declared = as_game(ElementType::from_ref(&array.element_type()?)?);
                decoder.types.push((declared, array.offset()));
            }
            decoder.reserve(items.saturating_mul(size_of::<Variant>()))?;
            let hash = if hashed { array_start() } else { NEVER };
            (Container::Array(Vec::with_capacity(items)), is_typed, hash)
        }
        VariantRef::Dictionary(dictionary) => {
            let typed_dictionary = typed(header, version, 16) || typed(header, version, 18);
            let (key_type, value_type) = if typed_dictionary {
                (
                    as_game(ElementType::from_ref(&dictionary.key_type()?)?),
                    as_game(ElementType::from_ref(&dictionary.value_type()?)?),
                )
            } else {
                (ElementType::Untyped, ElementType::Untyped)
            };
            if game_view && !key_type.is_untyped() {
                decoder.typed_dictionaries.push(dictionary.offset());
            }
            let entries = items / 2;
            decoder.reserve(entries.saturating_mul(ENTRY_BYTES))?;
            let dictionary =
                Dictionary::with_capacity(key_type, value_type, decoder.rules, entries);
            let hash = decoder.value_hashes.len() as u64;
            (Container::Dictionary(Box::new(dictionary)), false, hash)
        }
        VariantRef::Object(ObjectRef::Full(object)) => {
            decoder.classes.push(text(&object.class_name())?);
            decoder.reserve(items.saturating_mul(size_of::<(String, Variant)>()))?;
            (Container::Object(Vec::with_capacity(items)), false, NEVER)
        }
        // parse_head gives Values and Properties extents to these three only.
        _ => (Container::Array(Vec::new()), false, NEVER),
    };
    Ok(Open { container, left, hashed, typed: is_typed, discard: false, hash })
}

/// The root value, opened from its header when it is a plain array or dictionary (untyped, its
/// count within the bytes, its room reserved ahead without validating first), exactly as
/// `parse_head` and [`open`] would open it (so [`takes_leaves`] holds for it); with where its
/// first value starts. `None`, with nothing done, for any other value: the general loop reads
/// it, and reports its problems. O(1).
pub(super) fn open_plain_root(decoder: &mut Decoder<'_>) -> Option<(Open, usize)> {
    let (buf, options) = (decoder.buf, decoder.options);
    let (pos, depth) = decoder.root;
    if depth > options.max_depth() {
        return None;
    }
    let version = options.version();
    // The type first, from the header's low byte (a leaf goes on with nothing read).
    let dictionary = match VariantType::from_id(version, u32::from(*buf.get(pos)?))? {
        VariantType::Array => false,
        VariantType::Dictionary => true,
        _ => return None,
    };
    let header = u32_at(buf, pos).ok()?;
    let untyped = |shift: u32| !typed(header, version, shift);
    if !untyped(16) || (dictionary && !untyped(18)) {
        return None;
    }
    let after = pos.checked_add(4)?;
    let count = u32_at(buf, after).ok()? & 0x7FFF_FFFF;
    let first = after.checked_add(4)?;
    let (min_size, items) = if dictionary { (8, count.saturating_mul(2)) } else { (4, count) };
    if u64::from(count).saturating_mul(min_size) > remaining(buf, first) as u64 {
        return None;
    }
    let entries = usize::try_from(count).ok()?;
    let size = if dictionary { ENTRY_BYTES } else { size_of::<Variant>() };
    if !decoder.reserve_unvalidated(entries.saturating_mul(size)) {
        return None;
    }
    let open = if dictionary {
        let dictionary = match decoder.spare.take() {
            Some(Spare::Dictionary(mut used)) => {
                used.recycle(decoder.rules, entries);
                used
            }
            other => {
                decoder.spare = other;
                let (keys, values) = (ElementType::Untyped, ElementType::Untyped);
                Box::new(Dictionary::with_capacity(keys, values, decoder.rules, entries))
            }
        };
        let hash = decoder.value_hashes.len() as u64;
        let container = Container::Dictionary(dictionary);
        Open { container, left: items, hashed: false, typed: false, discard: false, hash }
    } else {
        let elements = match decoder.spare.take() {
            Some(Spare::Elements(mut used)) => {
                crate::owned::dismantle::clear_elements(&mut used);
                used.reserve(entries);
                used
            }
            other => {
                decoder.spare = other;
                Vec::with_capacity(entries)
            }
        };
        let container = Container::Array(elements);
        Open { container, left: items, hashed: false, typed: false, discard: false, hash: NEVER }
    };
    Some((open, first))
}

/// Whether [`fill_leaves`] may fill `open`: an array or a dictionary whose own hash is not
/// wanted and whose elements or keys the game view does not check (so each value goes in as
/// [`place`] would put it, with no hash but its key's).
pub(super) fn takes_leaves(decoder: &Decoder<'_>, open: &Open) -> bool {
    if open.hashed {
        return false;
    }
    match &open.container {
        Container::Array(_) => !(open.typed && decoder.options.game_view()),
        Container::Dictionary(dictionary) => {
            !decoder.options.game_view() || dictionary.key_type.is_untyped()
        }
        Container::Object(_) => false,
    }
}

/// Reads the values at `pos` (at nesting `depth`) that hold no other value straight into
/// `open` (see [`takes_leaves`]), as the general loop would read and [`place`] them, in the
/// same order and with the same checks, until `open` is full or the next value holds others:
/// that value's head is left in `next`, and `pos` is where it starts (a dictionary key read
/// before it waits in the dictionary, as the general loop leaves one). Needs no open-container
/// frame and no hash but a key's. O(bytes read).
pub(super) fn fill_leaves<'a>(
    decoder: &mut Decoder<'a>,
    open: &mut Open,
    pos: &mut usize,
    depth: u16,
    next: &mut Option<(VariantRef<'a>, Extent)>,
) -> Result<()> {
    let rules = decoder.rules;
    let quick = depth <= decoder.options.max_depth();
    match &mut open.container {
        Container::Array(elements) => {
            while open.left > 0 {
                match read_leaf(decoder, pos, depth, quick)? {
                    Read::Leaf(element) => {
                        decoder.fill(size_of::<Variant>());
                        elements.push(element);
                    }
                    Read::Holds(head) => {
                        *next = Some(head);
                        return Ok(());
                    }
                }
                open.left = open.left.saturating_sub(1);
            }
        }
        Container::Dictionary(dictionary) => {
            // Keys and values alternate: `left` is odd when a key read by the general loop
            // waits in the dictionary for its value.
            if open.left % 2 == 1 {
                match read_leaf(decoder, pos, depth, quick)? {
                    Read::Leaf(value) => match dictionary.settle(value) {
                        Settled::Added => decoder.fill(ENTRY_BYTES),
                        // A repeated key: the value it had goes (no value hashes are kept).
                        Settled::Replaced { old, .. } => drop(old),
                    },
                    Read::Holds(head) => {
                        *next = Some(head);
                        return Ok(());
                    }
                }
                open.left = open.left.saturating_sub(1);
            }
            while open.left > 0 {
                let key = match read_leaf(decoder, pos, depth, quick)? {
                    Read::Leaf(key) => key,
                    Read::Holds(head) => {
                        *next = Some(head);
                        return Ok(());
                    }
                };
                let hash = match &key {
                    Variant::String(s) => string_hash(s),
                    _ => leaf_hash(&key, rules),
                };
                open.left = open.left.saturating_sub(1);
                match read_leaf(decoder, pos, depth, quick)? {
                    Read::Leaf(value) => match dictionary.push_decoded(key, hash, value) {
                        None => decoder.fill(ENTRY_BYTES),
                        Some(old) => drop(old),
                    },
                    // The key's value is a container: the key waits for it in the dictionary.
                    Read::Holds(head) => {
                        dictionary.push_pending(key, hash);
                        *next = Some(head);
                        return Ok(());
                    }
                }
                open.left = open.left.saturating_sub(1);
            }
        }
        // Not taken (see `takes_leaves`).
        Container::Object(_) => {}
    }
    Ok(())
}

/// What [`read_leaf`] found.
enum Read<'a> {
    /// A value that holds no other value.
    Leaf(Variant),
    /// The head of a value that holds others.
    Holds((VariantRef<'a>, Extent)),
}

/// Reads the value at `pos` (at nesting `depth`, allowed when `quick`) when it holds no other
/// value, moving `pos` past it; otherwise gives its head, leaving `pos` where it starts.
#[inline(always)]
fn read_leaf<'a>(
    decoder: &mut Decoder<'a>,
    pos: &mut usize,
    depth: u16,
    quick: bool,
) -> Result<Read<'a>> {
    if quick {
        if let Some((value, end)) = quick_leaf(decoder.buf, *pos, decoder.options.version()) {
            *pos = end;
            return Ok(Read::Leaf(value));
        }
    }
    read_head(decoder, pos, depth)
}

/// [`read_leaf`] of a value [`quick_leaf`] does not read.
#[inline(never)]
fn read_head<'a>(decoder: &mut Decoder<'a>, pos: &mut usize, depth: u16) -> Result<Read<'a>> {
    let (value, end) = match parse_head(decoder.buf, *pos, decoder.options, depth)? {
        (value, Extent::End(end)) => (leaf(&value)?, end),
        (value, Extent::Strings { count, .. }) => {
            let bytes =
                usize::try_from(count).unwrap_or(usize::MAX).saturating_mul(size_of::<GdString>());
            decoder.reserve(bytes)?;
            let (done, end) = strings(&value)?;
            decoder.fill(bytes);
            (done, end)
        }
        head @ (_, Extent::Values { .. } | Extent::Properties { .. }) => {
            return Ok(Read::Holds(head));
        }
    };
    *pos = end;
    Ok(Read::Leaf(value))
}

/// Whether the container header `header` carries type information at bit `shift` (a typed
/// array, or the key or value type of a typed dictionary).
pub(super) fn typed(header: u32, version: Version, shift: u32) -> bool {
    kind_bits(version, header, shift) != 0
}

/// Puts `done`, a finished value whose hash is `hash` (if wanted), into the container `top`.
/// With the game view, an element of a typed array or a key of a typed dictionary is first
/// checked, and converted or left out, as the game does.
pub(super) fn place(
    decoder: &mut Decoder<'_>,
    top: &mut Open,
    done: Variant,
    hash: u64,
) -> Result<()> {
    let key_next = top.left % 2 == 0;
    let allow_objects = decoder.options.allow_objects();
    match &mut top.container {
        Container::Array(elements) => {
            decoder.fill(size_of::<Variant>());
            let (done, hash) = if top.typed && decoder.options.game_view() {
                let Some((declared, offset)) = decoder.types.last() else {
                    return Ok(());
                };
                match typed::admit(declared, done, allow_objects)
                    .map_err(|_| Error::new(*offset, ErrorKind::GameDependent))?
                {
                    Admitted::Kept(done) => (done, hash),
                    Admitted::Converted(done) => {
                        let hash = if top.hashed { key_hash(&done, decoder.rules) } else { NEVER };
                        (done, hash)
                    }
                    // Left out (and dropped without deep recursion).
                    Admitted::Dropped => return Ok(()),
                }
            } else {
                (done, hash)
            };
            if top.hashed {
                top.hash = array_step(top.hash, value_hash(&done, hash, decoder.rules));
            }
            elements.push(done);
        }
        Container::Dictionary(dictionary) => {
            if key_next {
                let checked = decoder.options.game_view() && !dictionary.key_type.is_untyped();
                if !checked {
                    dictionary.push_pending(done, hash);
                    return Ok(());
                }
                let offset = decoder.typed_dictionaries.last().copied().unwrap_or(0);
                match typed::admit(&dictionary.key_type, done, allow_objects)
                    .map_err(|_| Error::new(offset, ErrorKind::GameDependent))?
                {
                    Admitted::Kept(key) => dictionary.push_pending(key, hash),
                    Admitted::Converted(key) => {
                        let hash = key_hash(&key, decoder.rules);
                        dictionary.push_pending(key, hash);
                    }
                    Admitted::Dropped => top.discard = true,
                }
                return Ok(());
            }
            if core::mem::take(&mut top.discard) {
                // The value of a key the game dropped.
                decoder.fill(ENTRY_BYTES);
                drop(done);
                return Ok(());
            }
            let hash = if top.hashed { value_hash(&done, hash, decoder.rules) } else { NEVER };
            match dictionary.settle(done) {
                Settled::Added => {
                    decoder.fill(ENTRY_BYTES);
                    if top.hashed {
                        decoder.value_hashes.push(hash);
                    }
                }
                // A repeated key: the value it had goes (dropped without deep recursion).
                Settled::Replaced { position, old } => {
                    drop(old);
                    let base = usize::try_from(top.hash).unwrap_or(usize::MAX);
                    if let Some(slot) = decoder.value_hashes.get_mut(base.saturating_add(position))
                    {
                        *slot = hash;
                    }
                }
            }
        }
        Container::Object(properties) => {
            if let Some((_, slot)) = properties.last_mut() {
                *slot = done;
            }
            decoder.fill(size_of::<(String, Variant)>());
        }
    }
    Ok(())
}

/// The value of a finished container, and its hash when it is wanted.
pub(super) fn close(decoder: &mut Decoder<'_>, open: Open) -> (Variant, u64) {
    let Open { container, hashed, typed, hash, .. } = open;
    match container {
        Container::Array(elements) => {
            let element_type = if typed {
                decoder.types.pop().map(|(declared, _)| declared).unwrap_or_default()
            } else {
                ElementType::Untyped
            };
            let hash = if hashed { array_finish(hash, elements.len()) } else { NEVER };
            (Variant::Array(Box::new(Array { element_type, elements })), hash)
        }
        Container::Dictionary(dictionary) => {
            if decoder.options.game_view() && !dictionary.key_type.is_untyped() {
                decoder.typed_dictionaries.pop();
            }
            let base = usize::try_from(hash).unwrap_or(usize::MAX);
            let hash = if hashed && decoder.rules.identity().dictionaries_by_content() {
                let values = decoder.value_hashes.get(base..).unwrap_or(&[]);
                dictionary_hash_of(&dictionary, values)
            } else {
                NEVER
            };
            if hashed {
                decoder.value_hashes.truncate(base);
            }
            (Variant::Dictionary(dictionary), hash)
        }
        Container::Object(properties) => {
            let class = decoder.classes.pop().unwrap_or_default();
            (Variant::Object(Object::full(class, properties)), NEVER)
        }
    }
}

/// The hash of `dictionary`, whose values' hashes are `values` (see `key_hash.rs`).
pub(super) fn dictionary_hash_of(dictionary: &Dictionary, values: &[u64]) -> u64 {
    if values.len() != dictionary.len() {
        return NEVER;
    }
    let mut running = dictionary_start();
    for (&key, &value) in dictionary.key_hashes().iter().zip(values) {
        running = dictionary_step(running, key, value);
    }
    dictionary_finish(running, dictionary.len())
}
