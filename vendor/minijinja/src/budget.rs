//! ctxc patch, not in upstream minijinja: a budget of bytes for one evaluation on this thread.
//!
//! Fuel bounds the instructions a template runs, not what they allocate: `s ~ s` in a loop doubles
//! a string with each instruction. Inside [`with_budget`], everything whose size a template
//! controls is charged before (or, when it cannot be larger than values already charged, right
//! after) it is made: concatenation, `+` and `*`, slices, list and map literals, every byte written
//! to the output or to a capture, and the value each filter, test, function or method returns.
//! Values count their strings' bytes plus [`NODE_BYTES`] per value, aliases included, so a value
//! shared many times (a list of itself, nested) costs what printing it would.
//! Once the budget is spent, every further charge fails, so an evaluation cannot grow memory
//! without bound. Outside [`with_budget`] nothing is charged.

use std::cell::Cell;
use std::fmt;

use crate::error::{Error, ErrorKind};
use crate::value::{ObjectRepr, Value, ValueRepr};

/// What one value costs besides its text.
pub const NODE_BYTES: usize = std::mem::size_of::<Value>();

thread_local! {
    /// Bytes left in the current budget, and whether a charge has failed.
    static BUDGET: Cell<Option<(usize, bool)>> = const { Cell::new(None) };
}

/// Restores the enclosing budget when an evaluation ends, even by unwinding.
struct Restore(Option<(usize, bool)>);

impl Drop for Restore {
    fn drop(&mut self) {
        BUDGET.with(|b| b.set(self.0));
    }
}

/// Runs `f` with `bytes` to spend; returns its result and whether the budget ran out.
pub fn with_budget<R>(bytes: usize, f: impl FnOnce() -> R) -> (R, bool) {
    let _restore = Restore(BUDGET.with(|b| b.replace(Some((bytes, false)))));
    let rv = f();
    let exhausted = BUDGET.with(|b| b.get()).is_some_and(|(_, exhausted)| exhausted);
    (rv, exhausted)
}

fn over() -> Error {
    Error::new(
        ErrorKind::InvalidOperation,
        "the template uses more memory than its limit allows",
    )
}

/// Takes `bytes` from the current budget, if there is one.
pub fn charge(bytes: usize) -> Result<(), Error> {
    BUDGET.with(|b| match b.get() {
        None => Ok(()),
        Some((left, false)) if bytes <= left => {
            b.set(Some((left - bytes, false)));
            Ok(())
        }
        Some(_) => {
            b.set(Some((0, true)));
            Err(over())
        }
    })
}

/// Charges `count` values of `each` bytes, failing on overflow.
pub fn charge_many(count: usize, each: usize) -> Result<(), Error> {
    charge(count.checked_mul(each).ok_or_else(over)?)
}

fn active() -> bool {
    BUDGET.with(|b| b.get().is_some())
}

/// Charges what `value` holds: its strings' bytes and [`NODE_BYTES`] per value, walking into
/// sequences and maps (each visit charged, so the walk stops when the budget does).
pub fn charge_value(value: &Value) -> Result<(), Error> {
    if !active() {
        return Ok(());
    }
    ok!(charge(NODE_BYTES));
    let mut pending = vec![value.clone()];
    while let Some(value) = pending.pop() {
        match value.0 {
            ValueRepr::String(ref s, _) => ok!(charge(s.len())),
            ValueRepr::Bytes(ref b) => ok!(charge(b.len())),
            ValueRepr::Object(ref obj) => match obj.repr() {
                ObjectRepr::Map => {
                    for (k, v) in obj.try_iter_pairs().into_iter().flatten() {
                        ok!(charge(2 * NODE_BYTES));
                        pending.push(k);
                        pending.push(v);
                    }
                }
                // Only sized iterables are walked: others may be streams.
                ObjectRepr::Seq | ObjectRepr::Iterable if obj.enumerator_len().is_some() => {
                    for item in obj.try_iter().into_iter().flatten() {
                        ok!(charge(NODE_BYTES));
                        pending.push(item);
                    }
                }
                _ => {}
            },
            _ => {}
        }
    }
    Ok(())
}

/// Charges `value` as if it were held `times` times (a sequence repeated with `*`).
pub fn charge_value_times(value: &Value, times: usize) -> Result<(), Error> {
    if active() {
        for _ in 0..times {
            // Each walk charges at least one value, so this ends when the budget does.
            ok!(charge_value(value));
        }
    }
    Ok(())
}

/// A string that charges each piece written to it; a failed charge stops the writing.
pub struct ChargedString(pub String);

impl fmt::Write for ChargedString {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        charge(s.len()).map_err(|_| fmt::Error)?;
        self.0.push_str(s);
        Ok(())
    }
}

/// Formats `args` into a new string, charging as it grows.
pub fn charged_format(args: fmt::Arguments<'_>) -> Result<String, Error> {
    let mut out = ChargedString(String::new());
    fmt::write(&mut out, args).map_err(|_| over())?;
    Ok(out.0)
}

/// Charges the value a filter, test, function or method returned, unless it is one of the
/// arguments (already paid for) returned as is.
pub(crate) fn charge_result(rv: &Value, args: &[Value]) -> Result<(), Error> {
    let passed_through = args.iter().any(|arg| match (&rv.0, &arg.0) {
        (ValueRepr::Object(a), ValueRepr::Object(b)) => a.is_same_object(b),
        (ValueRepr::String(a, _), ValueRepr::String(b, _)) => std::sync::Arc::ptr_eq(a, b),
        _ => false,
    });
    match passed_through {
        true => Ok(()),
        false => charge_value(rv),
    }
}
