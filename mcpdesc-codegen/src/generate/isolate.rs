//! Running code that may panic (typify) without crashing or cluttering the generator's
//! output.
//!
//! [`run`] executes a closure on its own thread, with a large stack (typify recurses once
//! per schema level, and descriptions may nest 128 levels deep), and reports a panic as
//! an `Err` carrying its message. While it runs, a panic hook that stays silent for that
//! thread (and forwards every other thread's panics to the previous hook) is installed;
//! the previous hook is restored afterwards. A global lock keeps two runs from swapping
//! hooks at the same time.

use std::any::Any;
use std::cell::Cell;
use std::panic::{self, AssertUnwindSafe, PanicHookInfo};
use std::sync::{Arc, Mutex};

/// Stack size of the worker thread.
const STACK_SIZE: usize = 256 * 1024 * 1024;

thread_local! {
    static SILENT: Cell<bool> = const { Cell::new(false) };
}

static HOOK_LOCK: Mutex<()> = Mutex::new(());

type Hook = Box<dyn Fn(&PanicHookInfo<'_>) + Sync + Send + 'static>;

/// Runs `f` on a worker thread; a panic becomes `Err(message)`.
pub fn run<T, F>(f: F) -> Result<T, String>
where
    T: Send + 'static,
    F: FnOnce() -> T + Send + 'static,
{
    // A poisoned lock only means another run panicked outside `f`; the hook state is
    // restored by that run's guard, so continuing is safe.
    let _guard = HOOK_LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let previous: Arc<Hook> = Arc::new(panic::take_hook());
    let forward = Arc::clone(&previous);
    panic::set_hook(Box::new(move |info| {
        if !SILENT.with(Cell::get) {
            forward(info);
        }
    }));
    let outcome = std::thread::Builder::new()
        .name("mcpdesc-typify".into())
        .stack_size(STACK_SIZE)
        .spawn(move || {
            SILENT.with(|s| s.set(true));
            panic::catch_unwind(AssertUnwindSafe(f)).map_err(|payload| message(&*payload))
        })
        .map_err(|e| format!("cannot start the generator thread: {e}"))
        .and_then(|handle| {
            handle
                .join()
                .unwrap_or_else(|payload| Err(message(&*payload)))
        });
    // Dropping our hook releases its reference to the previous one, which can then be
    // put back as it was.
    drop(panic::take_hook());
    match Arc::try_unwrap(previous) {
        Ok(hook) => panic::set_hook(hook),
        Err(shared) => panic::set_hook(Box::new(move |info| shared(info))),
    }
    outcome
}

/// Like [`run`], but for code already on the worker thread: catches a panic of `f`.
pub fn catch<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    panic::catch_unwind(AssertUnwindSafe(f)).map_err(|payload| message(&*payload))
}

/// The text of a panic payload.
fn message(payload: &(dyn Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_owned()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "panic without a message".to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_becomes_an_error_and_the_hook_comes_back() {
        let out: Result<(), String> = run(|| panic!("boom {}", 42));
        assert_eq!(out, Err("boom 42".to_owned()));
        assert_eq!(run(|| 7), Ok(7));
        // Panics on this thread are still reported normally afterwards.
        let caught = std::panic::catch_unwind(|| panic!("visible"));
        assert!(caught.is_err());
    }

    #[test]
    fn catch_inside_the_worker() {
        let out = run(|| {
            let a: Result<u8, String> = catch(|| panic!("inner"));
            (a, catch(|| 1u8))
        });
        assert_eq!(out, Ok((Err("inner".to_owned()), Ok(1))));
    }
}
