//! Ctrl-C and SIGTERM as a request to stop: long subcommands (`book deepen`, `ggs`) finish
//! cleanly and save what is done instead of being killed.

use std::sync::atomic::{AtomicBool, Ordering};

/// Set by the first Ctrl-C or SIGTERM once [`stop_on_signals`] ran.
pub(crate) static STOP: AtomicBool = AtomicBool::new(false);

/// Ctrl-C and termination signals set [`STOP`] instead of killing the process, once: a
/// second signal kills it as usual.
pub(crate) fn stop_on_signals() {
    #[cfg(unix)]
    {
        extern "C" fn on_signal(_: libc::c_int) {
            STOP.store(true, Ordering::SeqCst);
        }
        // SAFETY: the handler only stores to an atomic, which is async-signal-safe; the
        // action structure is fully initialised before use.
        unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
            action.sa_flags = libc::SA_RESETHAND;
            libc::sigemptyset(&mut action.sa_mask);
            libc::sigaction(libc::SIGINT, &action, std::ptr::null_mut());
            libc::sigaction(libc::SIGTERM, &action, std::ptr::null_mut());
        }
    }
}
