//! The numbers a counter adds: machine integers while they fit, arbitrary precision after.

use num_bigint::BigUint;

/// A sum outgrew the number type; the count is redone with a wider one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Overflow;

/// A non-negative count that can be added to.
pub(crate) trait Tally: Clone + Send + Sync + 'static {
    /// The count of one.
    fn one() -> Self;
    /// The count of zero.
    fn zero() -> Self;
    /// `self += other`, or [`Overflow`] (leaving `self` unspecified).
    fn add(&mut self, other: &Self) -> Result<(), Overflow>;
    /// Whether the count is zero.
    fn is_zero(&self) -> bool;
    /// `self * other`, or [`Overflow`].
    fn mul(&self, other: &Self) -> Result<Self, Overflow>;
    /// The value as an arbitrary-precision integer.
    fn to_big(&self) -> BigUint;
    /// The value as the nearest `f64` (infinite beyond its range), for progress displays.
    fn approx(&self) -> f64;
    /// The value, if it fits in a `u64`.
    fn to_u64(&self) -> Option<u64>;
    /// The count `value`.
    fn from_u64(value: u64) -> Self;
}

impl Tally for u128 {
    fn one() -> Self {
        1
    }
    fn zero() -> Self {
        0
    }
    #[inline]
    fn add(&mut self, other: &Self) -> Result<(), Overflow> {
        *self = self.checked_add(*other).ok_or(Overflow)?;
        Ok(())
    }
    fn is_zero(&self) -> bool {
        *self == 0
    }
    fn mul(&self, other: &Self) -> Result<Self, Overflow> {
        self.checked_mul(*other).ok_or(Overflow)
    }
    fn to_big(&self) -> BigUint {
        BigUint::from(*self)
    }
    fn approx(&self) -> f64 {
        *self as f64
    }
    fn to_u64(&self) -> Option<u64> {
        u64::try_from(*self).ok()
    }
    fn from_u64(value: u64) -> Self {
        u128::from(value)
    }
}

impl Tally for BigUint {
    fn one() -> Self {
        BigUint::from(1u8)
    }
    fn zero() -> Self {
        BigUint::ZERO
    }
    #[inline]
    fn add(&mut self, other: &Self) -> Result<(), Overflow> {
        *self += other;
        Ok(())
    }
    fn is_zero(&self) -> bool {
        *self == BigUint::ZERO
    }
    fn mul(&self, other: &Self) -> Result<Self, Overflow> {
        Ok(self * other)
    }
    fn to_big(&self) -> BigUint {
        self.clone()
    }
    fn approx(&self) -> f64 {
        num_traits::ToPrimitive::to_f64(self).unwrap_or(f64::INFINITY)
    }
    fn to_u64(&self) -> Option<u64> {
        u64::try_from(self).ok()
    }
    fn from_u64(value: u64) -> Self {
        BigUint::from(value)
    }
}

/// The largest lower bound on a count offered so far, by counts that stopped before they
/// finished (each with the solutions it had counted for certain), shared between threads.
#[derive(Debug, Default)]
pub(super) struct LowerBound(std::sync::Mutex<BigUint>);

impl LowerBound {
    /// Raises the bound to `at_least` if that is higher.
    pub(super) fn offer(&self, at_least: BigUint) {
        let mut bound = self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if at_least > *bound {
            *bound = at_least;
        }
    }

    /// The bound now (0 if none was offered).
    pub(super) fn get(&self) -> BigUint {
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn machine_integers_report_overflow_and_big_ones_do_not() {
        let mut near = u128::MAX - 1;
        assert_eq!(near.add(&1), Ok(()));
        assert_eq!(near.add(&1), Err(Overflow));
        assert_eq!(u128::MAX.mul(&2), Err(Overflow));
        let mut big = u128::MAX.to_big();
        big.add(&BigUint::one()).expect("no overflow");
        assert_eq!(big, BigUint::from(2u8).pow(128));
    }

    #[test]
    fn a_lower_bound_keeps_the_largest_offered() {
        let bound = LowerBound::default();
        assert_eq!(bound.get(), BigUint::ZERO);
        bound.offer(BigUint::from(7u8));
        bound.offer(BigUint::from(3u8));
        assert_eq!(bound.get(), BigUint::from(7u8));
        bound.offer(u128::MAX.to_big() * 2u8);
        assert_eq!(bound.get(), u128::MAX.to_big() * 2u8);
    }
}
