//! The board scout: the port watch, probes on background threads and the finder's rule, in
//! one object the app polls. It reports the port list when it changes, boards to reconnect
//! and boards to offer; the app connects and tells it so.

use std::io;
use std::sync::Arc;
use std::sync::mpsc::{self, Receiver, Sender};
use std::time::Duration;

use super::finder::{BoardFinder, FinderAction, KnownBoard, Offer};
use super::ports::PortChoice;
use super::probe::{Verdict, probe_port};
use super::watch::{Lister, PortWatch, WATCH_INTERVAL, WatchNews, system_lister};
use crate::background::{Wake, WorkerThread};
use crate::protocol::Protocol;

/// What the scout tells the app.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ScoutNews {
    /// The port list changed: show these (the first news has them all).
    Ports(Vec<PortChoice>),
    /// The ports could not be listed: say so (once, until they can again).
    ListFailed(String),
    /// A board seen before is back: connect to it now, with this protocol, and then call
    /// [`BoardScout::connected`].
    Reconnect { path: String, protocol: Protocol },
    /// A new board answered: ask [`Offer::question`]; if the user accepts, connect and call
    /// [`BoardScout::connected`].
    Offer(Offer),
}

/// Probes a port: `probe_port`, or a stand-in in tests.
pub type Prober = Arc<dyn Fn(&str) -> Verdict + Send + Sync>;

/// Where the scout looks and how: the machine's ports and real probes, or stand-ins.
pub struct ScoutSetup {
    pub list: Lister,
    pub interval: Duration,
    pub probe: Prober,
}

impl Default for ScoutSetup {
    fn default() -> Self {
        Self {
            list: system_lister(),
            interval: WATCH_INTERVAL,
            probe: Arc::new(probe_port),
        }
    }
}

/// The running scout. Dropping it ends the watch; probes under way finish by themselves
/// (within about 3 s) and are not waited for.
pub struct BoardScout {
    finder: BoardFinder,
    ports: Vec<PortChoice>,
    watch: PortWatch,
    probe: Prober,
    probes: Vec<WorkerThread>,
    probed_tx: Sender<(PortChoice, Verdict)>,
    probed: Receiver<(PortChoice, Verdict)>,
    wake: Wake,
}

impl BoardScout {
    /// Watches this machine's ports, knowing `known` (kept from earlier runs).
    pub fn start(known: Vec<KnownBoard>, wake: Wake) -> io::Result<Self> {
        Self::start_with(ScoutSetup::default(), known, wake)
    }

    /// Watches what `setup` lists, probing with its prober.
    pub fn start_with(setup: ScoutSetup, known: Vec<KnownBoard>, wake: Wake) -> io::Result<Self> {
        let watch = PortWatch::start_with(setup.list, setup.interval, wake.clone())?;
        let (probed_tx, probed) = mpsc::channel();
        Ok(Self {
            finder: BoardFinder::new(known),
            ports: Vec::new(),
            watch,
            probe: setup.probe,
            probes: Vec::new(),
            probed_tx,
            probed,
            wake,
        })
    }

    /// What happened since the last call (call it when woken, or every frame).
    pub fn poll(&mut self) -> Vec<ScoutNews> {
        let mut news = Vec::new();
        while let Ok(message) = self.watch.news.try_recv() {
            match message {
                WatchNews::Changed(change) => {
                    self.ports = change.ports.clone();
                    news.push(ScoutNews::Ports(change.ports));
                    let actions = self.finder.appeared(&change.appeared);
                    self.act(actions, &mut news);
                }
                WatchNews::ListFailed(e) => news.push(ScoutNews::ListFailed(e)),
            }
        }
        while let Ok((port, verdict)) = self.probed.try_recv() {
            // A port gone while it was probed has nothing to offer.
            if !self.ports.iter().any(|p| p.path == port.path) {
                continue;
            }
            let action = self.finder.probed(&port, &verdict);
            self.act(action.into_iter().collect(), &mut news);
        }
        self.probes.retain(|thread| !thread.is_finished());
        news
    }

    fn act(&mut self, actions: Vec<FinderAction>, news: &mut Vec<ScoutNews>) {
        for action in actions {
            match action {
                FinderAction::Reconnect { path, protocol } => {
                    news.push(ScoutNews::Reconnect { path, protocol });
                }
                FinderAction::Offer(offer) => news.push(ScoutNews::Offer(offer)),
                FinderAction::Probe(port) => self.start_probe(port),
            }
        }
    }

    fn start_probe(&mut self, port: PortChoice) {
        let probe = self.probe.clone();
        let done = self.probed_tx.clone();
        let wake = self.wake.clone();
        let name = format!("probe {}", port.path);
        let started = WorkerThread::spawn(&name, move || {
            let verdict = probe(&port.path);
            if done.send((port, verdict)).is_ok() {
                wake();
            }
        });
        match started {
            Ok(thread) => self.probes.push(thread),
            // No thread, no probe: the port stays listed for the user to choose.
            Err(e) => eprintln!("boardsight: {e}"),
        }
    }

    /// The ports as last listed.
    pub fn ports(&self) -> &[PortChoice] {
        &self.ports
    }

    /// The app connected to the port at `path` with `protocol` (chosen by the user, an
    /// accepted offer or a reconnect). Returns whether the known boards changed: then save
    /// [`BoardScout::known_boards`].
    pub fn connected(&mut self, path: &str, protocol: Protocol) -> bool {
        let port = self
            .ports
            .iter()
            .find(|p| p.path == path)
            .cloned()
            .unwrap_or_else(|| PortChoice::given(path));
        self.finder.connected(&port, protocol)
    }

    /// The user disconnected: a known board plugged in may be taken again.
    pub fn disconnected(&mut self) {
        self.finder.disconnected();
    }

    /// The boards known, to keep in the settings.
    pub fn known_boards(&self) -> &[KnownBoard] {
        self.finder.known_boards()
    }
}

impl Drop for BoardScout {
    fn drop(&mut self) {
        // A probe ends by itself within seconds; closing the app need not wait for it.
        for thread in self.probes.drain(..) {
            thread.detach();
        }
    }
}
