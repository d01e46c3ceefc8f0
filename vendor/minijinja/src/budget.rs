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
//!
//! Fuel counts instructions, not what they cost: `s in t` on a long `t` is one instruction. A
//! second budget, of work, is charged by every operation whose cost grows with its operands:
//! a byte per byte of the strings a call (filter, test, function, method) is given, a byte per
//! byte compared or hashed, and [`VALUE_WORK`] per call, comparison and value an iteration
//! yields. An evaluation that spends it fails like one out of memory.

use std::cell::Cell;
use std::fmt;

use crate::error::{Error, ErrorKind};
use crate::value::{ObjectRepr, Value, ValueRepr};

/// What one value costs besides its text.
pub const NODE_BYTES: usize = std::mem::size_of::<Value>();

/// The work of stepping to a value, comparing two or making a call, besides the text read: about
/// what scanning that many bytes costs.
pub const VALUE_WORK: usize = NODE_BYTES;

/// What one evaluation may spend.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Bytes it may make (see the module documentation).
    pub memory: usize,
    /// Units of work beyond its instructions: one per byte a string operation scans, compares or
    /// hashes, and [`VALUE_WORK`] per value an iteration yields, per comparison and per call.
    pub work: u64,
}

/// Which limit an evaluation ran out of.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Spent {
    /// [`Limits::memory`].
    Memory,
    /// [`Limits::work`].
    Work,
}

#[derive(Clone, Copy)]
struct Budget {
    memory: usize,
    work: u64,
    spent: Option<Spent>,
}

thread_local! {
    /// What is left of the current evaluation's limits, and which one ran out.
    static BUDGET: Cell<Option<Budget>> = const { Cell::new(None) };
}

/// Restores the enclosing budget when an evaluation ends, even by unwinding.
struct Restore(Option<Budget>);

impl Drop for Restore {
    fn drop(&mut self) {
        BUDGET.with(|b| b.set(self.0));
    }
}

/// Runs `f` within `limits`; returns its result and which limit ran out, if one did.
pub fn with_budget<R>(limits: Limits, f: impl FnOnce() -> R) -> (R, Option<Spent>) {
    let fresh = Budget {
        memory: limits.memory,
        work: limits.work,
        spent: None,
    };
    let _restore = Restore(BUDGET.with(|b| b.replace(Some(fresh))));
    let rv = f();
    let spent = BUDGET.with(|b| b.get()).and_then(|b| b.spent);
    (rv, spent)
}

fn over(spent: Spent) -> Error {
    let what = match spent {
        Spent::Memory => "the template uses more memory than its limit allows",
        Spent::Work => "the template scans, compares or copies more text than its limit allows",
    };
    Error::new(ErrorKind::InvalidOperation, what)
}

/// Takes `bytes` from the current memory budget, if there is one.
pub fn charge(bytes: usize) -> Result<(), Error> {
    BUDGET.with(|b| match b.get() {
        None => Ok(()),
        Some(Budget {
            spent: Some(spent), ..
        }) => Err(over(spent)),
        Some(budget) if bytes <= budget.memory => {
            b.set(Some(Budget {
                memory: budget.memory - bytes,
                ..budget
            }));
            Ok(())
        }
        Some(budget) => {
            b.set(Some(Budget {
                memory: 0,
                spent: Some(Spent::Memory),
                ..budget
            }));
            Err(over(Spent::Memory))
        }
    })
}

/// Takes `units` from the current work budget; `false` once it (or the memory budget) is spent.
/// For the places that cannot fail (comparisons, hashing, iteration): the evaluation fails at its
/// next instruction ([`check`]) and [`with_budget`] reports it.
pub fn note_work(units: usize) -> bool {
    BUDGET.with(|b| match b.get() {
        None => true,
        Some(Budget { spent: Some(_), .. }) => false,
        Some(budget) if units as u64 <= budget.work => {
            b.set(Some(Budget {
                work: budget.work - units as u64,
                ..budget
            }));
            true
        }
        Some(budget) => {
            b.set(Some(Budget {
                work: 0,
                spent: Some(Spent::Work),
                ..budget
            }));
            false
        }
    })
}

/// Takes `units` from the current work budget, failing once it is spent.
pub fn charge_work(units: usize) -> Result<(), Error> {
    match note_work(units) {
        true => Ok(()),
        false => check(),
    }
}

/// Fails once either budget is spent (checked before every instruction).
pub fn check() -> Result<(), Error> {
    match BUDGET.with(|b| b.get()).and_then(|b| b.spent) {
        Some(spent) => Err(over(spent)),
        None => Ok(()),
    }
}

/// The work of one call: one, plus the bytes of the strings passed to it, which a filter, test,
/// function or method may scan once (none scans its arguments more than a bounded number of times).
pub fn call_work<'a>(args: impl IntoIterator<Item = &'a Value>) -> usize {
    args.into_iter().fold(VALUE_WORK, |work, arg| {
        let bytes = match arg.0 {
            ValueRepr::Bytes(ref b) => b.len(),
            _ => arg.as_str().map_or(0, str::len),
        };
        work.saturating_add(bytes)
    })
}

/// Charges `count` values of `each` bytes, failing on overflow.
pub fn charge_many(count: usize, each: usize) -> Result<(), Error> {
    charge(count.saturating_mul(each))
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

/// Collects `items` into a list, charging each value and its text before keeping it (so a
/// string split into millions of pieces is refused before they are all made).
pub fn charged_list(items: impl Iterator<Item = Value>) -> Result<Value, Error> {
    let mut list = Vec::new();
    for item in items {
        ok!(charge(NODE_BYTES + item.as_str().map_or(0, str::len)));
        list.push(item);
    }
    Ok(Value::from(list))
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
    match fmt::write(&mut out, args) {
        Ok(()) => Ok(out.0),
        // A spent budget, or a value that failed to format itself.
        Err(_) => {
            check().and_then(|()| Err(Error::new(ErrorKind::WriteFailure, "formatting failed")))
        }
    }
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
