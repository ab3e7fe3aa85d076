//! The engine's child process: its pipes, what it last said that was not UCI, and how it
//! ended. Each line it prints is handed to the worker as it comes.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command as Process, Stdio};
use std::time::{Duration, Instant};

use shakmaty_uci::UciMessage;

use super::fault::EngineFault;
use crate::background::WorkerThread;

pub(super) struct EngineProcess {
    child: Child,
    stdin: ChildStdin,
    /// The last line that was not UCI, for the message if the engine then goes quiet.
    pub garbage: Option<String>,
}

impl EngineProcess {
    /// Starts the engine; each line it prints goes to `heard`, then `None` when its output
    /// ends. `heard` returns whether anyone still listens.
    pub fn start(
        path: &Path,
        mut heard: impl FnMut(Option<String>) -> bool + Send + 'static,
    ) -> Result<Self, EngineFault> {
        let start_error = |message: String| EngineFault::Start {
            path: path.display().to_string(),
            message,
        };
        let spawn = || {
            Process::new(path)
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::null())
                .spawn()
        };
        let mut spawned = spawn();
        // A file just written may still be open in a process forking at that moment
        // (ETXTBSY): it is free a moment later.
        for _ in 0..10 {
            match &spawned {
                Err(e) if e.raw_os_error() == Some(26) => {
                    std::thread::sleep(Duration::from_millis(50));
                    spawned = spawn();
                }
                _ => break,
            }
        }
        let mut child = spawned.map_err(|e| start_error(e.to_string()))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            return Err(start_error("no pipes to talk over".into()));
        };
        let reader = WorkerThread::spawn("engine output", move || {
            for text in BufReader::new(stdout).lines() {
                // Unreadable output ends the conversation like an exit does.
                let Ok(text) = text else { break };
                if !heard(Some(text)) {
                    return;
                }
            }
            heard(None);
        })
        .map_err(|e| start_error(e.to_string()))?;
        // It ends with the engine's output, which a process the engine started may hold
        // open a while after the engine has gone: nothing waits for it.
        reader.detach();
        Ok(Self {
            child,
            stdin,
            garbage: None,
        })
    }

    pub fn say(&mut self, message: &UciMessage) -> Result<(), EngineFault> {
        self.say_text(&message.to_string())
    }

    /// A line shakmaty-uci cannot build, such as `go` with both a clock and a `movetime`.
    pub fn say_text(&mut self, line: &str) -> Result<(), EngineFault> {
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .map_err(|_| self.exited())
    }

    /// A line the engine printed, if it is UCI; other text is kept as `garbage`.
    pub fn understand(&mut self, line: &str) -> Option<UciMessage> {
        let line = line.trim();
        match line.parse::<UciMessage>() {
            Ok(message) => Some(message),
            Err(_) => {
                if !line.is_empty() {
                    self.garbage = Some(line.to_owned());
                }
                None
            }
        }
    }

    pub fn silence(&self, asked: &str, waited: Duration) -> EngineFault {
        EngineFault::Silent {
            asked: asked.to_owned(),
            waited,
            garbage: self.garbage.clone(),
        }
    }

    pub fn exited(&mut self) -> EngineFault {
        // The process may take a moment to be reaped after its output closes.
        let deadline = Instant::now() + Duration::from_millis(500);
        let code = loop {
            match self.child.try_wait() {
                Ok(Some(status)) => break status.code(),
                Ok(None) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(10));
                }
                _ => break None,
            }
        };
        EngineFault::Exited {
            code,
            last_words: self.garbage.clone(),
        }
    }

    /// Asks the engine to quit, and makes sure it has.
    pub fn stop(&mut self) {
        // An engine already gone cannot hear it; it is killed below either way.
        drop(self.say(&UciMessage::Quit));
        let deadline = Instant::now() + Duration::from_millis(500);
        while Instant::now() < deadline {
            if matches!(self.child.try_wait(), Ok(Some(_))) {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        if let Err(e) = self.child.kill().and_then(|()| self.child.wait().map(drop)) {
            eprintln!("boardsight: the engine could not be stopped: {e}");
        }
    }
}
