//! The system's speech, run as a program for each announcement: espeak-ng (or espeak, or
//! speech-dispatcher's `spd-say`) on Linux, `say` on macOS, SAPI through PowerShell on
//! Windows. None of them is linked in: a system without speech builds and runs the same.

use std::io::{self, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};

use super::{DEFAULT_WORDS_PER_MINUTE, Voice};

/// The speech programs boardsight knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Program {
    EspeakNg,
    Espeak,
    SpdSay,
    MacSay,
    WindowsSapi,
}

impl Program {
    fn command(self) -> &'static str {
        match self {
            Self::EspeakNg => "espeak-ng",
            Self::Espeak => "espeak",
            Self::SpdSay => "spd-say",
            Self::MacSay => "say",
            Self::WindowsSapi => "powershell",
        }
    }

    /// Whether the program is there to run.
    fn is_present(self) -> bool {
        let probe = match self {
            Self::EspeakNg | Self::Espeak | Self::SpdSay => "--version",
            // Always part of the system.
            Self::MacSay => return cfg!(target_os = "macos"),
            Self::WindowsSapi => return cfg!(windows),
        };
        Command::new(self.command())
            .arg(probe)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|status| status.success())
    }
}

/// Speech through a program of the system's.
#[derive(Clone, Debug)]
pub struct SystemVoice {
    program: Program,
    voice: String,
    words_per_minute: u32,
    /// Each announcement goes to a numbered WAV file here instead (espeak-ng only).
    wav_files: Option<(PathBuf, usize)>,
}

/// What to install when there is no speech.
pub const NO_SPEECH: &str =
    "No speech on this system: install espeak-ng (or speech-dispatcher) to hear the board";

impl SystemVoice {
    /// The system's speech, or why there is none.
    pub fn find() -> Result<Self, String> {
        [
            Program::MacSay,
            Program::WindowsSapi,
            Program::EspeakNg,
            Program::SpdSay,
            Program::Espeak,
        ]
        .into_iter()
        .find(|program| program.is_present())
        .map(Self::of)
        .ok_or_else(|| NO_SPEECH.to_owned())
    }

    /// espeak-ng writing announcement n to `dir/say-<n>.wav` rather than to the speakers:
    /// what would be heard, to check or keep.
    pub fn to_wav_files(dir: PathBuf) -> Result<Self, String> {
        if !Program::EspeakNg.is_present() {
            return Err("espeak-ng is not installed".to_owned());
        }
        Ok(Self {
            wav_files: Some((dir, 0)),
            ..Self::of(Program::EspeakNg)
        })
    }

    fn of(program: Program) -> Self {
        Self {
            program,
            voice: String::new(),
            words_per_minute: DEFAULT_WORDS_PER_MINUTE,
            wav_files: None,
        }
    }

    /// The program that speaks.
    pub fn name(&self) -> &'static str {
        self.program.command()
    }

    /// The voices the program offers, by the names it takes (empty if it does not say).
    pub fn voices(&self) -> Vec<String> {
        let (args, column): (&[&str], usize) = match self.program {
            Program::EspeakNg | Program::Espeak => (&["--voices"], 1),
            Program::MacSay => (&["-v", "?"], 0),
            _ => return Vec::new(),
        };
        let Ok(output) = Command::new(self.program.command())
            .args(args)
            .stdin(Stdio::null())
            .stderr(Stdio::null())
            .output()
        else {
            return Vec::new();
        };
        let text = String::from_utf8_lossy(&output.stdout);
        let mut voices: Vec<String> = text
            .lines()
            // espeak's first line is its header.
            .skip(usize::from(column == 1))
            .filter_map(|line| line.split_whitespace().nth(column))
            .map(str::to_owned)
            .collect();
        voices.sort();
        voices.dedup();
        voices
    }

    fn command(&mut self, words: &str) -> Command {
        let mut command = Command::new(self.program.command());
        let rate = self.words_per_minute.to_string();
        match self.program {
            Program::EspeakNg | Program::Espeak => {
                command.args(["-s", &rate]);
                if !self.voice.is_empty() {
                    command.args(["-v", &self.voice]);
                }
                if let Some((dir, count)) = &mut self.wav_files {
                    *count += 1;
                    command.arg("-w").arg(dir.join(format!("say-{count}.wav")));
                }
                command.arg(words);
            }
            Program::SpdSay => {
                // spd-say's rate runs from -100 to 100, 0 being its default (about 175).
                let relative =
                    ((i64::from(self.words_per_minute) - 175) * 100 / 225).clamp(-100, 100);
                command.args(["-w", "-r", &relative.to_string()]);
                if !self.voice.is_empty() {
                    command.args(["-y", &self.voice]);
                }
                command.arg(words);
            }
            Program::MacSay => {
                command.args(["-r", &rate]);
                if !self.voice.is_empty() {
                    command.args(["-v", &self.voice]);
                }
                command.arg(words);
            }
            Program::WindowsSapi => {
                // SAPI's rate runs from -10 to 10, 0 being about 175 words a minute.
                let relative = ((i64::from(self.words_per_minute) - 175) / 22).clamp(-10, 10);
                let mut script = format!(
                    "Add-Type -AssemblyName System.Speech; \\
                     $s = New-Object System.Speech.Synthesis.SpeechSynthesizer; $s.Rate = {relative}; "
                );
                if !self.voice.is_empty() {
                    script.push_str(&format!(
                        "$s.SelectVoice('{}'); ",
                        self.voice.replace('\'', "''")
                    ));
                }
                // The words come on standard input: no quoting to get wrong.
                script.push_str("$s.Speak([Console]::In.ReadToEnd())");
                command.args(["-NoProfile", "-NonInteractive", "-Command", &script]);
            }
        }
        command
    }
}

impl Voice for SystemVoice {
    fn say(&mut self, words: &str) -> io::Result<()> {
        let mut child = self
            .command(words)
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()?;
        if let Some(mut input) = child.stdin.take()
            && self.program == Program::WindowsSapi
        {
            input.write_all(words.as_bytes())?;
        }
        let status = child.wait()?;
        if status.success() {
            Ok(())
        } else {
            Err(io::Error::other(format!(
                "{} failed: {status}",
                self.program.command()
            )))
        }
    }

    fn configure(&mut self, voice: &str, words_per_minute: u32) {
        self.voice = voice.to_owned();
        self.words_per_minute = words_per_minute.clamp(
            *super::WORDS_PER_MINUTE.start(),
            *super::WORDS_PER_MINUTE.end(),
        );
    }
}
