//! Idempotency tokens and jitter, without a random-number crate.

use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

static COUNTER: AtomicU64 = AtomicU64::new(0);

/// 64 unpredictable-enough bits: a freshly keyed SipHash (std seeds its keys from the
/// OS) over a process-wide counter, the time and the process id.
pub(crate) fn random_u64() -> u64 {
    let mut h = RandomState::new().build_hasher();
    h.write_u64(COUNTER.fetch_add(1, Ordering::Relaxed));
    h.write_u128(
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0),
    );
    h.write_u32(std::process::id());
    h.finish()
}

/// A new `ClientRequestToken`: 36 characters in UUID v4 layout (Athena wants 32-128).
pub(crate) fn new_client_request_token() -> String {
    let a = random_u64();
    let b = random_u64();
    let bytes: [u8; 16] = {
        let mut x = [0u8; 16];
        x[..8].copy_from_slice(&a.to_be_bytes());
        x[8..].copy_from_slice(&b.to_be_bytes());
        x[6] = (x[6] & 0x0f) | 0x40;
        x[8] = (x[8] & 0x3f) | 0x80;
        x
    };
    let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    format!(
        "{}-{}-{}-{}-{}",
        &hex[0..8],
        &hex[8..12],
        &hex[12..16],
        &hex[16..20],
        &hex[20..32]
    )
}

/// A uniformly random fraction in [0, 1).
pub(crate) fn random_fraction() -> f64 {
    (random_u64() >> 11) as f64 / (1u64 << 53) as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_unique_and_long_enough() {
        let a = new_client_request_token();
        let b = new_client_request_token();
        assert_ne!(a, b);
        assert_eq!(a.len(), 36);
        assert!((0.0..1.0).contains(&random_fraction()));
    }
}
