//! A small deterministic pseudo-random generator (SplitMix64): the generated inputs of a
//! seed are the same on every machine and every run, which `--seed` promises. Not for
//! anything that needs unpredictability.

/// SplitMix64 state.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    /// A generator for `seed`, mixed with `salt` (a tool's name) so that each tool
    /// gets its own sequence whatever else is selected.
    pub fn new(seed: u64, salt: &str) -> Self {
        // FNV-1a of the salt.
        let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
        for byte in salt.bytes() {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
        }
        Rng(seed ^ hash)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`0` when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next_u64() % n as u64) as usize
        }
    }

    /// An integer in `lo..=hi` (`lo` when the range is empty).
    pub fn between(&mut self, lo: i64, hi: i64) -> i64 {
        if hi <= lo {
            return lo;
        }
        let span = (hi as i128 - lo as i128 + 1) as u128;
        (lo as i128 + (u128::from(self.next_u64()) % span) as i128) as i64
    }

    /// A coin flip.
    pub fn flip(&mut self) -> bool {
        self.next_u64() & 1 == 1
    }

    /// A float in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

#[cfg(test)]
mod tests {
    use super::Rng;

    #[test]
    fn sequences_depend_on_seed_and_salt_only() {
        let take = |seed, salt| {
            let mut rng = Rng::new(seed, salt);
            (0..4).map(|_| rng.next_u64()).collect::<Vec<_>>()
        };
        assert_eq!(take(7, "a"), take(7, "a"));
        assert_ne!(take(7, "a"), take(8, "a"));
        assert_ne!(take(7, "a"), take(7, "b"));
        let mut rng = Rng::new(1, "");
        for _ in 0..200 {
            let v = rng.between(-3, 3);
            assert!((-3..=3).contains(&v));
            assert!(rng.below(5) < 5);
            assert!((0.0..1.0).contains(&rng.unit()));
        }
    }
}
