//! Variables and literals of a learning search.
//!
//! A variable is one yes-or-no fact about one cell: "this cell is filled" in black and white,
//! "this cell has colour k" in colour. The variables of a cell are numbered one after another:
//! variable `cell * per_cell + k`, where a domain has `per_cell` of them per cell. A literal is
//! a variable with a value, `2 * var + value`: literal `l` is true when its variable has the
//! value `l & 1`.

/// A variable with a value: `2 * var + value`.
pub(crate) type Lit = u32;

/// The literal "`var` has value `value`".
pub(super) fn lit(var: u32, value: bool) -> Lit {
    2 * var + u32::from(value)
}

/// The variable of a literal.
pub(super) fn var_of(lit: Lit) -> u32 {
    lit >> 1
}

/// The value a literal gives its variable.
pub(super) fn value(lit: Lit) -> bool {
    lit & 1 == 1
}

/// The same variable with the other value.
pub(super) fn negated(lit: Lit) -> Lit {
    lit ^ 1
}

/// The value-table entry of a variable whose literal `lit` is true: the search keeps one byte
/// per variable, 0 while it is unknown, else `1 + value`.
pub(super) fn value_of(lit: Lit) -> u8 {
    1 + (lit & 1) as u8
}

/// The value-table entry of an unknown variable.
pub(super) const UNKNOWN: u8 = 0;
