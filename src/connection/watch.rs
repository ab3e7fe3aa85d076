//! Ports watched: a background thread lists the serial ports every two seconds and tells
//! when one appears or goes (a board plugged in or out).

use std::io;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::time::Duration;

use super::ports::{PortChoice, list_ports};
use crate::background::{Wake, WorkerThread};

/// How often the ports are listed: a board plugged in shows within this.
pub const WATCH_INTERVAL: Duration = Duration::from_secs(2);

/// The ports changed (the first message has every port as appeared).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PortsChanged {
    /// Every port now, USB ones first.
    pub ports: Vec<PortChoice>,
    /// Ports that were not there at the last look.
    pub appeared: Vec<PortChoice>,
    /// Ports that were there and are gone.
    pub gone: Vec<PortChoice>,
}

/// What the watch reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WatchNews {
    Changed(PortsChanged),
    /// The ports could not be listed (said once, until a listing works again).
    ListFailed(String),
}

/// Lists the ports: `list_ports`, or a stand-in in tests.
pub type Lister = Box<dyn FnMut() -> Result<Vec<PortChoice>, String> + Send>;

/// The machine's own ports, as `list_ports` gives them.
pub fn system_lister() -> Lister {
    Box::new(|| list_ports().map_err(|e| e.to_string()))
}

/// The running watch: read its news; dropping it ends the thread.
pub struct PortWatch {
    /// Dropped first, which wakes and ends the thread.
    stop: Sender<()>,
    pub news: Receiver<WatchNews>,
    _thread: WorkerThread,
}

impl PortWatch {
    /// Watches the machine's ports every `WATCH_INTERVAL`; `wake` is called after each news.
    pub fn start(wake: Wake) -> io::Result<Self> {
        Self::start_with(system_lister(), WATCH_INTERVAL, wake)
    }

    /// Watches what `list` gives, every `interval`.
    pub fn start_with(mut list: Lister, interval: Duration, wake: Wake) -> io::Result<Self> {
        let (stop, stopped) = mpsc::channel::<()>();
        let (news_tx, news) = mpsc::channel();
        let thread = WorkerThread::spawn("port watch", move || {
            let mut known: Option<Vec<PortChoice>> = None;
            let mut failing = false;
            loop {
                let message = match list() {
                    Ok(ports) => {
                        failing = false;
                        changes(known.as_deref(), &ports).inspect(|_| known = Some(ports))
                    }
                    Err(e) if !failing => {
                        failing = true;
                        Some(WatchNews::ListFailed(e))
                    }
                    Err(_) => None,
                };
                if let Some(message) = message {
                    if news_tx.send(message).is_err() {
                        return;
                    }
                    wake();
                }
                match stopped.recv_timeout(interval) {
                    Err(RecvTimeoutError::Timeout) => {}
                    Ok(()) | Err(RecvTimeoutError::Disconnected) => return,
                }
            }
        })?;
        Ok(Self {
            stop,
            news,
            _thread: thread,
        })
    }
}

impl Drop for PortWatch {
    fn drop(&mut self) {
        // The thread may be sleeping: this wakes it to end (the join follows).
        let _ = self.stop.send(());
    }
}

/// What changed from `before` (`None`: the first look) to `now`; `None` if nothing did.
pub fn changes(before: Option<&[PortChoice]>, now: &[PortChoice]) -> Option<WatchNews> {
    let first_look = before.is_none();
    let before = before.unwrap_or_default();
    let appeared: Vec<PortChoice> = now
        .iter()
        .filter(|p| !before.contains(p))
        .cloned()
        .collect();
    let gone: Vec<PortChoice> = before
        .iter()
        .filter(|p| !now.contains(p))
        .cloned()
        .collect();
    if appeared.is_empty() && gone.is_empty() && !first_look {
        return None;
    }
    Some(WatchNews::Changed(PortsChanged {
        ports: now.to_vec(),
        appeared,
        gone,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};

    fn port(path: &str) -> PortChoice {
        PortChoice::given(path)
    }

    #[test]
    fn changes_name_what_appeared_and_went() {
        let Some(WatchNews::Changed(first)) = changes(None, &[port("/dev/ttyACM0")]) else {
            panic!("the first look is news");
        };
        assert_eq!(first.appeared, [port("/dev/ttyACM0")]);
        assert_eq!(
            changes(Some(&[port("/dev/ttyACM0")]), &[port("/dev/ttyACM0")]),
            None
        );
        let Some(WatchNews::Changed(next)) =
            changes(Some(&[port("/dev/ttyACM0")]), &[port("/dev/ttyUSB0")])
        else {
            panic!("a change");
        };
        assert_eq!(next.appeared, [port("/dev/ttyUSB0")]);
        assert_eq!(next.gone, [port("/dev/ttyACM0")]);
        assert_eq!(next.ports, [port("/dev/ttyUSB0")]);
    }

    #[test]
    fn an_empty_machine_is_told_once() {
        assert!(changes(None, &[]).is_some());
        assert_eq!(changes(Some(&[]), &[]), None);
    }

    #[test]
    fn the_watch_reports_a_port_plugged_in_and_wakes() {
        let looks = Arc::new(AtomicUsize::new(0));
        let counter = looks.clone();
        let lister: Lister = Box::new(move || {
            let look = counter.fetch_add(1, Ordering::SeqCst);
            match look {
                0 => Ok(vec![]),
                1 => Err("sysfs is gone".to_owned()),
                2 => Err("sysfs is gone".to_owned()),
                _ => Ok(vec![port("/dev/ttyACM0")]),
            }
        });
        let wakes = Arc::new(AtomicUsize::new(0));
        let woken = wakes.clone();
        let watch = PortWatch::start_with(
            lister,
            Duration::from_millis(5),
            Arc::new(move || {
                woken.fetch_add(1, Ordering::SeqCst);
            }),
        )
        .expect("the watch starts");
        let wait = Duration::from_secs(5);
        let first = watch.news.recv_timeout(wait).expect("the first look");
        assert!(matches!(first, WatchNews::Changed(ref c) if c.ports.is_empty()));
        let failed = watch.news.recv_timeout(wait).expect("the failure");
        assert_eq!(failed, WatchNews::ListFailed("sysfs is gone".to_owned()));
        let Ok(WatchNews::Changed(plugged)) = watch.news.recv_timeout(wait) else {
            panic!("the port plugged in");
        };
        assert_eq!(plugged.appeared, [port("/dev/ttyACM0")]);
        // Each news wakes the owner, just after it is sent.
        let deadline = std::time::Instant::now() + wait;
        while wakes.load(Ordering::SeqCst) < 3 {
            assert!(std::time::Instant::now() < deadline, "woken too few times");
            std::thread::sleep(Duration::from_millis(1));
        }
        drop(watch);
    }
}
