//! The speaker thread: announcements queue while one is being said, a newer one about the
//! same topic takes the place of one not yet said, and the caller never waits.

use std::io;
use std::sync::mpsc::{self, Receiver, Sender, TryRecvError};

use super::Announcement;
use crate::background::WorkerThread;

/// Something that says words aloud (or writes them down, in tests).
pub trait Voice: Send {
    /// Says `words`, returning once they have been said.
    fn say(&mut self, words: &str) -> io::Result<()>;
    /// Speaks with the voice called `voice` (empty: the default) at `words_per_minute`.
    fn configure(&mut self, voice: &str, words_per_minute: u32);
}

enum Message {
    Say(Announcement),
    Configure {
        voice: String,
        words_per_minute: u32,
    },
}

/// Says announcements in turn on a thread of its own. The thread is not joined: it ends
/// when the speaker goes, once the sentence it is saying is said.
pub struct Speaker {
    to: Sender<Message>,
}

impl Speaker {
    /// Starts a thread saying what it is given with `voice`.
    pub fn start(mut voice: Box<dyn Voice>) -> io::Result<Self> {
        let (to, from) = mpsc::channel();
        WorkerThread::spawn("speaker", move || speak(voice.as_mut(), &from))?.detach();
        Ok(Self { to })
    }

    /// Queues `announcement`; a queued one about the same topic is dropped for it.
    pub fn say(&self, announcement: Announcement) {
        let _ = self.to.send(Message::Say(announcement));
    }

    /// Speaks from now on with `voice` at `words_per_minute`.
    pub fn configure(&self, voice: &str, words_per_minute: u32) {
        let _ = self.to.send(Message::Configure {
            voice: voice.to_owned(),
            words_per_minute,
        });
    }
}

fn speak(voice: &mut dyn Voice, from: &Receiver<Message>) {
    let mut queue: Vec<Announcement> = Vec::new();
    loop {
        if queue.is_empty() {
            match from.recv() {
                Ok(message) => take(voice, &mut queue, message),
                Err(_) => return,
            }
        }
        loop {
            match from.try_recv() {
                Ok(message) => take(voice, &mut queue, message),
                Err(TryRecvError::Empty) => break,
                Err(TryRecvError::Disconnected) => return,
            }
        }
        if !queue.is_empty() {
            let next = queue.remove(0);
            // A voice that fails once may work the next time (a busy sound device).
            let _ = voice.say(&next.words);
        }
    }
}

fn take(voice: &mut dyn Voice, queue: &mut Vec<Announcement>, message: Message) {
    match message {
        Message::Say(announcement) => {
            queue.retain(|queued| queued.topic != announcement.topic);
            queue.push(announcement);
        }
        Message::Configure {
            voice: name,
            words_per_minute,
        } => voice.configure(&name, words_per_minute),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::voice::Topic;
    use std::time::Duration;

    /// Tells each announcement as it starts to say it, then waits to be let go on.
    struct Gated {
        said: Sender<String>,
        gate: Receiver<()>,
    }

    impl Voice for Gated {
        fn say(&mut self, words: &str) -> io::Result<()> {
            let _ = self.said.send(words.to_owned());
            let _ = self.gate.recv();
            Ok(())
        }
        fn configure(&mut self, voice: &str, words_per_minute: u32) {
            let _ = self
                .said
                .send(format!("configured {voice} {words_per_minute}"));
        }
    }

    fn gated() -> (Speaker, Receiver<String>, Sender<()>) {
        let (to, said) = mpsc::channel();
        let (open, gate) = mpsc::channel();
        let speaker = Speaker::start(Box::new(Gated { said: to, gate })).expect("a thread");
        (speaker, said, open)
    }

    fn next(said: &Receiver<String>) -> String {
        said.recv_timeout(Duration::from_secs(10)).expect("said")
    }

    #[test]
    fn while_one_is_said_the_rest_queue_and_a_newer_one_replaces_its_topic() {
        let (speaker, said, open) = gated();
        speaker.say(Announcement::new(Topic::Move, "e4"));
        assert_eq!(next(&said), "e4");
        // The voice is busy with "e4": these queue, and the caller goes on at once.
        speaker.say(Announcement::new(Topic::Move, "e5"));
        speaker.say(Announcement::new(
            Topic::Warning,
            "Put the white pawn back on e2",
        ));
        speaker.say(Announcement::new(Topic::Clock, "White, ten seconds"));
        speaker.say(Announcement::new(Topic::Move, "Knight f3"));
        speaker.say(Announcement::new(Topic::Warning, "Remove the piece on e4"));
        for _ in 0..3 {
            open.send(()).expect("the voice waits");
        }
        assert_eq!(
            [next(&said), next(&said), next(&said)],
            ["White, ten seconds", "Knight f3", "Remove the piece on e4"]
        );
        open.send(()).expect("the voice waits");
        assert!(said.recv_timeout(Duration::from_millis(200)).is_err());
    }

    #[test]
    fn a_new_voice_or_speed_applies_from_the_next_announcement() {
        let (speaker, said, open) = gated();
        speaker.configure("en-gb", 220);
        speaker.say(Announcement::new(Topic::End, "Draw by stalemate"));
        assert_eq!(next(&said), "configured en-gb 220");
        assert_eq!(next(&said), "Draw by stalemate");
        open.send(()).expect("the voice waits");
    }
}
