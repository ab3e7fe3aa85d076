//! Every `AppCommand` is carried out here, after the UI pass, and every finished file job
//! is taken in here: the one place the app changes what it shows and records.

use std::time::Instant;

use eframe::egui;
use shakmaty::Chess;

use super::command::{AppCommand, FilePick, Window};
use super::jobs::{Done, Job, Picture, file_name};
use super::{BoardsightApp, theme};
use crate::connection::{Command, list_ports};
use crate::engine::Strength;
use crate::pgn::position_code;
use crate::recognizer::Config;
use crate::session::GameUnderReview;
use crate::session::Source;
use shakmaty::Position;

impl BoardsightApp {
    pub(super) fn run_command(&mut self, ctx: &egui::Context, command: AppCommand) {
        let session = &mut self.session;
        match command {
            AppCommand::Board(Command::Undo) => {
                // Against the engine, Undo goes back to the player's last move: past the
                // engine's reply too, when it has been made.
                let times = match session.engine() {
                    Some(engine) if session.snapshot().position.turn() != engine.side() => 2,
                    _ => 1,
                };
                for _ in 0..times.min(session.snapshot().game.moves.len().max(1)) {
                    session.send(Command::Undo);
                }
            }
            AppCommand::Board(command) => session.send(command),
            AppCommand::Correct { ply, mv } => {
                session.send(Command::Correct { ply, mv });
                self.screen.viewed_ply = None;
            }
            AppCommand::UseSimulator => {
                self.screen.viewed_ply = None;
                let config = self.recognizer_config();
                self.session.use_simulator(config);
            }
            AppCommand::Connect => {
                self.screen.viewed_ply = None;
                let config = self.recognizer_config();
                let settings = &self.settings;
                let port = settings.port.trim().to_owned();
                let protocol = settings.protocol;
                self.session.connect(port.clone(), protocol, config);
                self.session
                    .send(Command::Orient(settings.sensor_orientation));
                if let Some(scout) = self.scout.as_mut()
                    && scout.connected(&port, protocol)
                {
                    self.settings.known_boards = scout.known_boards().to_vec();
                }
            }
            AppCommand::Disconnect => {
                session.disconnect();
                if let Some(scout) = self.scout.as_mut() {
                    scout.disconnected();
                }
            }
            AppCommand::AcceptOffer(accept) => {
                if let Some(offer) = self.screen.offer.take()
                    && accept
                {
                    self.settings.port = offer.path;
                    self.settings.protocol = offer.protocol;
                    self.run_command(ctx, AppCommand::Connect);
                }
            }
            AppCommand::RefreshPorts => match list_ports() {
                Ok(ports) => self.screen.ports = ports,
                Err(e) => session.set_notice(format!("The serial ports could not be listed: {e}")),
            },
            AppCommand::SetSensorOrientation(orientation) => {
                self.settings.sensor_orientation = orientation;
                // The simulated board is wired as it should be; a real one may not be.
                if matches!(session.source(), Source::Serial { .. }) {
                    session.send(Command::Orient(orientation));
                }
            }
            AppCommand::NewGame => self.set_up(Chess::default()),
            AppCommand::Copy { text, what } => {
                ctx.copy_text(text.clone());
                session.say(format!("copied the {what}: {text}"));
            }
            AppCommand::CopyShown { code } => {
                let (fen, position_code) =
                    super::move_list::shown_codes(self.session.view(), self.screen.viewed_ply);
                let command = if code {
                    AppCommand::Copy {
                        text: position_code,
                        what: "position code",
                    }
                } else {
                    AppCommand::Copy {
                        text: fen,
                        what: "FEN",
                    }
                };
                self.run_command(ctx, command);
            }
            AppCommand::SetUp(text) => match position_code::parse_position(&text) {
                Ok(position) => {
                    self.set_up(position);
                    self.session.dismiss_notice();
                    self.screen.window = None;
                }
                Err(e) => session.set_notice(e.to_string()),
            },
            AppCommand::SensorClick(square) => {
                let promotion = session.snapshot().pending_promotion;
                if let Some(board) = session.source_mut().simulated_board() {
                    board.click(square, promotion);
                }
            }
            AppCommand::StartDemo => {
                if let Some(board) = session.source_mut().simulated_board() {
                    board.start_demo(&crate::sim::sample::games(), 2.0);
                }
            }
            AppCommand::StopDemo => {
                if let Some(board) = session.source_mut().simulated_board() {
                    board.stop_demo();
                }
            }
            AppCommand::Pick(pick) if !self.file_dialogs => {
                session.say(format!("no file dialog here: {}", pick_words(pick)));
            }
            AppCommand::Pick(pick) => {
                if let Some(command) = pick_file(pick) {
                    self.run_command(ctx, command);
                }
            }
            AppCommand::OpenLog(path) => {
                self.settings.remember_file(&path);
                let config = self.recognizer_config();
                self.jobs.run(Job::OpenRecording { path, config });
            }
            AppCommand::SaveLog(path) => {
                self.settings.remember_file(&path);
                if session.source().timeline().is_some() {
                    session.set_notice("This session is a recording already.".into());
                } else {
                    let readings = session.readings().to_vec();
                    self.jobs.run(Job::SaveLog { path, readings });
                }
            }
            AppCommand::LoadPgn(path) => {
                self.settings.remember_file(&path);
                self.jobs.run(Job::ListPgn(path));
            }
            AppCommand::SavePgn(path) => {
                self.settings.remember_file(&path);
                let (text, plies) = session.pgn();
                self.jobs.run(Job::SavePgn { path, text, plies });
            }
            AppCommand::DemoFromPgn(path) => self.jobs.run(Job::ReadDemoGames(path)),
            AppCommand::ContinueListed(index) => self.continue_listed(index),
            AppCommand::CloseChooser => self.screen.chooser = None,
            AppCommand::ViewPly(ply) => self.screen.viewed_ply = ply,
            AppCommand::Seek(index) => session.seek(index),
            AppCommand::Highlight(square) => self.screen.highlight = square,
            AppCommand::ShowHealth(on) => self.screen.show_health = on,
            AppCommand::Play(speed) => {
                if let Some(timeline) = session.source_mut().timeline_mut() {
                    timeline.play(speed);
                }
            }
            AppCommand::Pause => {
                if let Some(timeline) = session.source_mut().timeline_mut() {
                    timeline.pause();
                }
            }
            AppCommand::TableView(on) => {
                self.screen.table_view = on;
                ctx.send_viewport_cmd(egui::ViewportCommand::Fullscreen(on));
            }
            AppCommand::StartEngine => {
                let settings = &self.settings;
                let side = if settings.engine_plays_black {
                    shakmaty::Color::Black
                } else {
                    shakmaty::Color::White
                };
                let strength = Strength::Level(settings.engine_level);
                // The analysis would play the engine's game for the player.
                self.session.set_analysis(&settings.engine_path, None);
                self.session
                    .start_engine(&settings.engine_path, side, strength);
            }
            AppCommand::StopEngine => session.stop_engine(),
            AppCommand::ShareAsDgt(on) => {
                self.settings.share_as_dgt = on;
                session.share_as_dgt(on);
            }
            AppCommand::LivePgn(path) => {
                self.settings.live_pgn_on = path.is_some();
                if let Some(path) = &path {
                    self.settings.live_pgn = path.display().to_string();
                }
                session.set_live_pgn(path);
            }
            AppCommand::Hint => session.ask_hint(&self.settings.engine_path),
            AppCommand::Analyse(lines) => session.set_analysis(&self.settings.engine_path, lines),
            AppCommand::ReviewGame => {
                session.review_game(&self.settings.engine_path, self.settings.review_limit())
            }
            AppCommand::CloseReview => session.close_review(),
            AppCommand::ExportPng(path) => {
                let viewed = self.screen.viewed_ply;
                let (position, last_move) = session.view().at(viewed);
                if let Some(position) = position {
                    let marks = session.review().map(GameUnderReview::marks);
                    let ply = viewed.unwrap_or(session.view().moves.len());
                    let look = crate::picture::Look {
                        last_move,
                        arrow: super::central_panel::better_move(session, viewed),
                        mark: ply
                            .checked_sub(1)
                            .and_then(|i| marks?.get(i).copied().flatten()),
                        flipped: self.settings.board_flipped,
                    };
                    let picture = Picture::Position {
                        position: Box::new(position.clone()),
                        look,
                    };
                    self.jobs.run(Job::ExportPicture { path, picture });
                }
            }
            AppCommand::ExportGif(path) => {
                let game = session.snapshot().game.clone();
                let (marks, better) = match session.review() {
                    Some(review) => (
                        review.marks().to_vec(),
                        review.review().better_moves(review.marks()),
                    ),
                    None => (Vec::new(), Vec::new()),
                };
                let picture = Picture::Game {
                    game,
                    marks,
                    better,
                };
                self.jobs.run(Job::ExportPicture { path, picture });
            }
            AppCommand::SetClock(control) => session.set_clock(control, Instant::now()),
            AppCommand::FlipBoard => {
                self.settings.board_flipped = !self.settings.board_flipped;
                session.set_player(super::bottom_side(self.settings.board_flipped));
            }
            AppCommand::SetVoice(voice) => {
                session.set_voice(voice.clone());
                self.settings.voice = voice;
            }
            AppCommand::RepeatEngineMove => session.repeat_engine_move(),
            AppCommand::PlayOnline {
                request,
                url,
                token,
                remember,
            } => session.play_online(
                &url,
                token,
                remember,
                request,
                crate::online::Patience::default(),
            ),
            AppCommand::Broadcast(to) => session.broadcast(to),
            AppCommand::StopBroadcast => session.stop_broadcast(),
            AppCommand::SetTable(table) => session.set_table(table),
            AppCommand::OnlineOrder(order) => session.online_order(order),
            AppCommand::ToggleTheme => {
                self.settings.dark_theme = !self.settings.dark_theme;
                ctx.set_theme(theme(self.settings.dark_theme));
            }
            AppCommand::OpenWindow(window) => {
                if window == Some(Window::SetUp) {
                    self.screen.fen_input.clear();
                }
                self.screen.window = window;
            }
            AppCommand::ShowWelcome(on) => {
                self.screen.welcome = on;
                if !on {
                    self.settings.welcome_seen = true;
                }
            }
            AppCommand::ShowTimeline(on) => self.screen.show_timeline = on,
            AppCommand::ToggleSidePanel => self.settings.side_panel = !self.settings.side_panel,
            AppCommand::Quit => ctx.send_viewport_cmd(egui::ViewportCommand::Close),
            AppCommand::DismissNotice => session.dismiss_notice(),
            AppCommand::Restore => {
                self.screen.viewed_ply = None;
                session.restore_newest();
            }
            AppCommand::OpenRestoredLog => {
                if let Some(unfinished) = session.take_newest_unfinished() {
                    self.run_command(ctx, AppCommand::OpenLog(unfinished.log_path));
                }
            }
            AppCommand::DiscardUnfinished => session.discard_unfinished(),
            AppCommand::RestoreLater => session.postpone_restore(),
        }
    }

    /// Takes in what a file job came to.
    pub(super) fn finish_job(&mut self, done: Done) {
        let session = &mut self.session;
        match done {
            Done::PgnListed { path, file } => {
                self.screen.chooser = Some((file_name(&path), file));
                // A file of one game needs no choosing.
                if self
                    .screen
                    .chooser
                    .as_ref()
                    .is_some_and(|(_, f)| f.len() == 1)
                {
                    self.continue_listed(0);
                }
            }
            Done::DemoGames { games } => match session.source_mut().simulated_board() {
                Some(board) => board.start_demo(&games, 2.0),
                None => session.set_notice("The demo plays on the simulated board.".into()),
            },
            Done::RecordingOpened(timeline) => {
                self.screen.viewed_ply = None;
                self.screen.time_range = None;
                self.screen.highlight = None;
                session.show_recording(timeline);
            }
            Done::PgnSaved { path, plies } => {
                session.say(format!("saved {}", path.display()));
                session.games_saved(plies);
            }
            Done::LogSaved(path) | Done::PictureSaved(path) => {
                session.say(format!("saved {}", path.display()));
            }
            Done::Failed(message) => session.set_notice(message),
        }
    }

    fn continue_listed(&mut self, index: usize) {
        let Some((name, file)) = &self.screen.chooser else {
            return;
        };
        match file.game(index) {
            Some(Ok(game)) => {
                self.session.continue_game(&game);
                self.screen.viewed_ply = None;
                self.screen.chooser = None;
            }
            Some(Err(e)) => self.session.set_notice(format!("{name}: {e}")),
            None => {}
        }
    }

    fn set_up(&mut self, position: Chess) {
        if let Some(board) = self.session.source_mut().simulated_board() {
            board.set_up(&position);
        }
        self.session.send(Command::SetUp(position));
    }

    fn recognizer_config(&self) -> Config {
        Config {
            orientation: self.settings.board_orientation,
            ..Config::default()
        }
    }
}

/// Asks the user for a file in the system's dialog; the command that then acts on it.
fn pick_file(pick: FilePick) -> Option<AppCommand> {
    let dialog = rfd::FileDialog::new();
    Some(match pick {
        FilePick::OpenLog => AppCommand::OpenLog(
            dialog
                .add_filter("sensor log", &["log", "txt"])
                .pick_file()?,
        ),
        FilePick::SaveLog => AppCommand::SaveLog(dialog.set_file_name("session.log").save_file()?),
        FilePick::LoadPgn => AppCommand::LoadPgn(dialog.add_filter("PGN", &["pgn"]).pick_file()?),
        FilePick::SavePgn => AppCommand::SavePgn(dialog.set_file_name("game.pgn").save_file()?),
        FilePick::DemoPgn => {
            AppCommand::DemoFromPgn(dialog.add_filter("PGN", &["pgn"]).pick_file()?)
        }
        FilePick::LivePgn => AppCommand::LivePgn(Some(
            dialog
                .add_filter("PGN", &["pgn"])
                .set_file_name("live.pgn")
                .save_file()?,
        )),
        FilePick::ExportPng => AppCommand::ExportPng(
            dialog
                .add_filter("PNG", &["png"])
                .set_file_name("position.png")
                .save_file()?,
        ),
        FilePick::ExportGif => AppCommand::ExportGif(
            dialog
                .add_filter("GIF", &["gif"])
                .set_file_name("game.gif")
                .save_file()?,
        ),
    })
}

/// What the file dialog of `pick` asks for, in words.
pub fn pick_words(pick: FilePick) -> &'static str {
    match pick {
        FilePick::OpenLog => "a sensor log to open",
        FilePick::SaveLog => "where to save the sensor log",
        FilePick::LoadPgn => "a PGN file to open",
        FilePick::SavePgn => "where to save the games",
        FilePick::DemoPgn => "a PGN file for the demo",
        FilePick::LivePgn => "the file the live PGN keeps",
        FilePick::ExportPng => "where to save the picture",
        FilePick::ExportGif => "where to save the game's animation",
    }
}
