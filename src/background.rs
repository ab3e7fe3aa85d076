//! Background threads: each has a name, is joined when its owner drops it, and a failure to
//! start says which thread it was. `Wake` is how a thread tells its owner that something
//! arrived.

use std::io;
use std::sync::Arc;
use std::thread::JoinHandle;

/// Called when something arrives that should be shown (a GUI repaints).
pub type Wake = Arc<dyn Fn() + Send + Sync>;

/// A wake-up that wakes no one: for owners that look on their own (the command line).
pub fn no_wake() -> Wake {
    Arc::new(|| {})
}

/// A named thread, joined when dropped. The owner first drops or closes whatever the thread
/// waits on (declaring that field before this one does it), so that the join ends.
#[derive(Debug)]
pub struct WorkerThread {
    name: String,
    handle: Option<JoinHandle<()>>,
}

impl WorkerThread {
    /// Runs `body` on a thread called `name`; if none starts, the error names the thread.
    pub fn spawn(name: &str, body: impl FnOnce() + Send + 'static) -> io::Result<Self> {
        let handle = std::thread::Builder::new()
            .name(name.to_owned())
            .spawn(body)
            .map_err(|e| {
                io::Error::new(e.kind(), format!("the {name} thread could not start: {e}"))
            })?;
        Ok(Self {
            name: name.to_owned(),
            handle: Some(handle),
        })
    }

    /// Whether the thread has ended (or was joined).
    pub fn is_finished(&self) -> bool {
        self.handle.as_ref().is_none_or(JoinHandle::is_finished)
    }

    /// Waits for the thread to end; one that panicked is reported on stderr.
    pub fn wait(&mut self) {
        if let Err(failed) = self.finish() {
            eprintln!("boardsight: {failed}");
        }
    }

    /// Waits for the thread to end, and says whether it failed (panicked).
    pub fn join(mut self) -> Result<(), ThreadFailed> {
        self.finish()
    }

    fn finish(&mut self) -> Result<(), ThreadFailed> {
        match self.handle.take().map(JoinHandle::join) {
            Some(Err(_)) => Err(ThreadFailed {
                name: self.name.clone(),
            }),
            _ => Ok(()),
        }
    }

    /// Lets the thread run on unwaited: for one that may be blocked in something its owner
    /// cannot end (a sleep, a read from another process), and that ends by itself.
    pub fn detach(mut self) {
        self.handle = None;
    }
}

impl Drop for WorkerThread {
    fn drop(&mut self) {
        self.wait();
    }
}

/// A thread that panicked.
#[derive(Debug, thiserror::Error)]
#[error("the {name} thread failed")]
pub struct ThreadFailed {
    name: String,
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;

    #[test]
    fn a_dropped_thread_has_ended() {
        let (tx, rx) = mpsc::channel::<()>();
        let (done_tx, done_rx) = mpsc::channel();
        let thread = WorkerThread::spawn("test worker", move || {
            for () in rx {}
            let _ = done_tx.send(());
        })
        .expect("a thread");
        assert!(!thread.is_finished());
        drop(tx);
        drop(thread);
        assert!(done_rx.try_recv().is_ok());
    }

    #[test]
    fn a_panic_is_reported_not_passed_on() {
        let thread =
            WorkerThread::spawn("panicking worker", || panic!("on purpose")).expect("a thread");
        let failed = thread.join().expect_err("the panic");
        assert_eq!(failed.to_string(), "the panicking worker thread failed");
    }
}
