//! MD5 (RFC 1321), for the checksum Godot 4 puts in SIMPLIFY_PATH: the MD5 of a node's RPC
//! method names, as 32 lowercase hexadecimal characters. O(n), no allocation.

/// Per-round shift amounts.
const SHIFTS: [u32; 64] = [
    7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9,
    14, 20, 5, 9, 14, 20, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 6, 10, 15,
    21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21,
];

/// `floor(abs(sin(i + 1)) * 2^32)`.
const TABLE: [u32; 64] = [
    0xd76a_a478,
    0xe8c7_b756,
    0x2420_70db,
    0xc1bd_ceee,
    0xf57c_0faf,
    0x4787_c62a,
    0xa830_4613,
    0xfd46_9501,
    0x6980_98d8,
    0x8b44_f7af,
    0xffff_5bb1,
    0x895c_d7be,
    0x6b90_1122,
    0xfd98_7193,
    0xa679_438e,
    0x49b4_0821,
    0xf61e_2562,
    0xc040_b340,
    0x265e_5a51,
    0xe9b6_c7aa,
    0xd62f_105d,
    0x0244_1453,
    0xd8a1_e681,
    0xe7d3_fbc8,
    0x21e1_cde6,
    0xc337_07d6,
    0xf4d5_0d87,
    0x455a_14ed,
    0xa9e3_e905,
    0xfcef_a3f8,
    0x676f_02d9,
    0x8d2a_4c8a,
    0xfffa_3942,
    0x8771_f681,
    0x6d9d_6122,
    0xfde5_380c,
    0xa4be_ea44,
    0x4bde_cfa9,
    0xf6bb_4b60,
    0xbebf_bc70,
    0x289b_7ec6,
    0xeaa1_27fa,
    0xd4ef_3085,
    0x0488_1d05,
    0xd9d4_d039,
    0xe6db_99e5,
    0x1fa2_7cf8,
    0xc4ac_5665,
    0xf429_2244,
    0x432a_ff97,
    0xab94_23a7,
    0xfc93_a039,
    0x655b_59c3,
    0x8f0c_cc92,
    0xffef_f47d,
    0x8584_5dd1,
    0x6fa8_7e4f,
    0xfe2c_e6e0,
    0xa301_4314,
    0x4e08_11a1,
    0xf753_7e82,
    0xbd3a_f235,
    0x2ad7_d2bb,
    0xeb86_d391,
];

/// An MD5 computation fed piece by piece.
#[derive(Clone, Debug)]
pub(crate) struct Md5 {
    state: [u32; 4],
    block: [u8; 64],
    filled: usize,
    length: u64,
}

impl Md5 {
    /// A computation over nothing yet.
    pub(crate) const fn new() -> Self {
        Md5 {
            state: [0x6745_2301, 0xefcd_ab89, 0x98ba_dcfe, 0x1032_5476],
            block: [0; 64],
            filled: 0,
            length: 0,
        }
    }

    /// Feeds `bytes`.
    pub(crate) fn update(&mut self, bytes: &[u8]) {
        self.length = self.length.wrapping_add((bytes.len() as u64).wrapping_mul(8));
        for &byte in bytes {
            if let Some(slot) = self.block.get_mut(self.filled) {
                *slot = byte;
            }
            self.filled = self.filled.saturating_add(1);
            if self.filled == 64 {
                self.compress();
                self.filled = 0;
            }
        }
        crate::wire::work::add(bytes.len() >> 6);
    }

    /// The digest as 32 lowercase hexadecimal characters, as Godot's `String::md5_text` gives it.
    pub(crate) fn hex(mut self) -> [u8; 32] {
        let length = self.length;
        self.push(0x80);
        while self.filled != 56 {
            self.push(0);
        }
        for byte in length.to_le_bytes() {
            self.push(byte);
        }
        let mut out = [0u8; 32];
        let digits = b"0123456789abcdef";
        let bytes = self.state.iter().flat_map(|word| word.to_le_bytes());
        for (pair, byte) in out.chunks_exact_mut(2).zip(bytes) {
            let high = digits.get(usize::from(byte >> 4)).copied().unwrap_or(b'0');
            let low = digits.get(usize::from(byte & 15)).copied().unwrap_or(b'0');
            pair.copy_from_slice(&[high, low]);
        }
        out
    }

    /// Appends one padding byte (not counted in the length).
    fn push(&mut self, byte: u8) {
        if let Some(slot) = self.block.get_mut(self.filled) {
            *slot = byte;
        }
        self.filled = self.filled.saturating_add(1);
        if self.filled == 64 {
            self.compress();
            self.filled = 0;
        }
    }

    /// One 64-byte block into the state.
    fn compress(&mut self) {
        let mut words = [0u32; 16];
        for (word, chunk) in words.iter_mut().zip(self.block.chunks_exact(4)) {
            *word = u32::from_le_bytes([
                chunk.first().copied().unwrap_or(0),
                chunk.get(1).copied().unwrap_or(0),
                chunk.get(2).copied().unwrap_or(0),
                chunk.get(3).copied().unwrap_or(0),
            ]);
        }
        let [mut a, mut b, mut c, mut d] = self.state;
        for i in 0..64usize {
            let (f, g) = match i / 16 {
                0 => ((b & c) | (!b & d), i),
                1 => ((d & b) | (!d & c), (5usize.wrapping_mul(i).wrapping_add(1)) % 16),
                2 => (b ^ c ^ d, (3usize.wrapping_mul(i).wrapping_add(5)) % 16),
                _ => (c ^ (b | !d), (7usize.wrapping_mul(i)) % 16),
            };
            let k = TABLE.get(i).copied().unwrap_or(0);
            let m = words.get(g).copied().unwrap_or(0);
            let s = SHIFTS.get(i).copied().unwrap_or(0);
            let sum = a.wrapping_add(f).wrapping_add(k).wrapping_add(m);
            a = d;
            d = c;
            c = b;
            b = b.wrapping_add(sum.rotate_left(s));
        }
        for (state, add) in self.state.iter_mut().zip([a, b, c, d]) {
            *state = state.wrapping_add(add);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Md5;

    fn md5(bytes: &[u8]) -> [u8; 32] {
        let mut m = Md5::new();
        m.update(bytes);
        m.hex()
    }

    #[test]
    fn rfc_1321_vectors() {
        assert_eq!(&md5(b""), b"d41d8cd98f00b204e9800998ecf8427e");
        assert_eq!(&md5(b"a"), b"0cc175b9c0f1b6a831c399e269772661");
        assert_eq!(&md5(b"abc"), b"900150983cd24fb0d6963f7d28e17f72");
        assert_eq!(&md5(b"message digest"), b"f96b697d7cb7938d525a2f31aaf161d0");
        assert_eq!(
            &md5(
                b"12345678901234567890123456789012345678901234567890123456789012345678901234567890"
            ),
            b"57edf4a22be3c955ac49da2e2107b67a"
        );
        // Fed in pieces across block boundaries.
        let mut m = Md5::new();
        for chunk in b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".chunks(7) {
            m.update(chunk);
        }
        assert_eq!(&m.hex(), b"d174ab98d277d9f5a5611c2c9f419d9f");
    }
}
