//! The Online section: a lichess game played from the board. Before a game, the token
//! (from `LICHESS_TOKEN`, or typed here and kept only while the app runs), the opponent, the
//! clock and Play; during one, how it stands and its controls.

use eframe::egui;
use egui::RichText;

use super::command::AppCommand;
use super::settings::{OnlineOpponent, Settings};
use crate::online::broadcast::BroadcastTo;
use crate::online::{Opponent, Order, Request};
use crate::session::{Offer, Session};

/// A token typed in the Online section.
#[derive(Default)]
pub struct TypedToken {
    pub text: String,
    /// Keep it in the system keyring once lichess takes it.
    pub remember: bool,
}

impl TypedToken {
    /// The token to use: the environment's, the typed one, or (`None`) the keyring's.
    fn choice(&self) -> Option<String> {
        crate::online::token::from_environment()
            .or_else(|| Some(self.text.trim().to_owned()).filter(|text| !text.is_empty()))
    }
}

pub fn show(
    ui: &mut egui::Ui,
    session: &Session,
    settings: &mut Settings,
    typed_token: &mut TypedToken,
    out: &mut Vec<AppCommand>,
) {
    game(ui, session, settings, typed_token, out);
    ui.separator();
    broadcast(ui, session, settings, typed_token, out);
}

/// The token: where it comes from, or a field to type it in.
fn token_entry(ui: &mut egui::Ui, typed_token: &mut TypedToken) {
    if crate::online::token::from_environment().is_some() {
        ui.label(RichText::new("Token from LICHESS_TOKEN").small().weak());
        return;
    }
    ui.horizontal(|ui| {
        let label = ui.label("Token");
        ui.add(
            egui::TextEdit::singleline(&mut typed_token.text)
                .password(true)
                .hint_text("empty: the keyring's")
                .desired_width(150.0),
        )
        .labelled_by(label.id)
        .on_hover_text(
            "Create one at lichess.org/account/oauth/token with the scopes \"Play games with \
             the board API\" (board:play) and, to broadcast, \"Create, update, delete \
             studies and broadcasts\" (study:write). Left empty, the token kept in the \
             system keyring is used.",
        );
    });
    if !typed_token.text.trim().is_empty() {
        ui.checkbox(&mut typed_token.remember, "Keep it in the system keyring")
            .on_hover_text("Otherwise it is forgotten when boardsight closes");
    }
}

fn game(
    ui: &mut egui::Ui,
    session: &Session,
    settings: &mut Settings,
    typed_token: &mut TypedToken,
    out: &mut Vec<AppCommand>,
) {
    if let Some(status) = session.online_status() {
        // The game's address on a line of its own: it is long and does not wrap.
        for (index, line) in status.split(" · ").enumerate() {
            let text = RichText::new(line);
            ui.add(
                egui::Label::new(if index == 0 {
                    text.strong()
                } else {
                    text.small()
                })
                .wrap(),
            );
        }
    }
    if session.is_online() {
        if let Some(offer) = session.online_offer() {
            let (words, answer): (&str, fn(bool) -> Order) = match offer {
                Offer::Draw => ("The opponent offers a draw", Order::Draw),
                Offer::Takeback => ("The opponent asks to take back its move", Order::Takeback),
            };
            ui.label(
                RichText::new(words)
                    .strong()
                    .color(ui.visuals().warn_fg_color),
            );
            ui.horizontal(|ui| {
                if ui.button("Accept").clicked() {
                    out.push(AppCommand::OnlineOrder(answer(true)));
                }
                if ui.button("Decline").clicked() {
                    out.push(AppCommand::OnlineOrder(answer(false)));
                }
            });
        }
        ui.horizontal_wrapped(|ui| {
            for (label, order) in [
                ("Resign", Order::Resign),
                ("Offer a draw", Order::Draw(true)),
                ("Abort", Order::Abort),
                ("Claim the win", Order::ClaimVictory),
            ] {
                if ui.button(label).clicked() {
                    out.push(AppCommand::OnlineOrder(order));
                }
            }
        });
        return;
    }
    token_entry(ui, typed_token);
    let choice = &mut settings.online;
    // Four choices: they wrap rather than pass the panel's edge.
    ui.horizontal_wrapped(|ui| {
        ui.radio_value(&mut choice.opponent, OnlineOpponent::Ai, "AI");
        ui.radio_value(&mut choice.opponent, OnlineOpponent::Seek, "Seek");
        ui.radio_value(&mut choice.opponent, OnlineOpponent::Player, "Player");
        ui.radio_value(&mut choice.opponent, OnlineOpponent::Accept, "Accept")
            .on_hover_text("Wait for a challenge and accept it");
    });
    match choice.opponent {
        OnlineOpponent::Ai => {
            ui.add(egui::Slider::new(&mut choice.ai_level, 1..=8).text("AI level"));
        }
        OnlineOpponent::Player | OnlineOpponent::Accept => {
            let hint = match choice.opponent {
                OnlineOpponent::Player => "their lichess name",
                _ => "anyone, or their name",
            };
            ui.horizontal(|ui| {
                let label = ui.label("Name");
                ui.add(
                    egui::TextEdit::singleline(&mut choice.player)
                        .hint_text(hint)
                        .desired_width(150.0),
                )
                .labelled_by(label.id);
            });
        }
        OnlineOpponent::Seek => {
            ui.label(
                RichText::new("Rapid or slower: the Board API seeks no faster games")
                    .small()
                    .weak(),
            );
        }
    }
    ui.horizontal(|ui| {
        let label = ui.label("Clock");
        ui.add(egui::TextEdit::singleline(&mut choice.time_control).desired_width(60.0))
            .labelled_by(label.id);
        ui.checkbox(&mut choice.rated, "Rated");
    });
    let clock = choice.time_control.parse();
    let opponent = match choice.opponent {
        OnlineOpponent::Ai => Some(Opponent::Ai(choice.ai_level.clamp(1, 8))),
        OnlineOpponent::Seek => Some(Opponent::Seek),
        OnlineOpponent::Player => Some(Opponent::Player(choice.player.trim().to_owned()))
            .filter(|_| !choice.player.trim().is_empty()),
        OnlineOpponent::Accept => Some(Opponent::Accept(
            Some(choice.player.trim().to_owned()).filter(|name| !name.is_empty()),
        )),
    };
    let ready = clock.is_ok() && opponent.is_some() && session.is_live();
    let button = ui
        .add_enabled(
            ready,
            egui::Button::new(match choice.opponent {
                OnlineOpponent::Accept => "Wait for a challenge",
                _ => "Play on lichess",
            }),
        )
        .on_disabled_hover_text("Needs an opponent, a clock such as 10+5 and a board");
    if button.clicked()
        && let (Ok(clock), Some(opponent)) = (clock, opponent)
    {
        out.push(AppCommand::PlayOnline {
            request: Request {
                opponent,
                clock,
                rated: choice.rated,
            },
            url: choice.lichess_url.clone(),
            token: typed_token.choice(),
            remember: typed_token.remember,
        });
    }
}

/// Broadcasting the board's game to a lichess broadcast round, with the table's names.
fn broadcast(
    ui: &mut egui::Ui,
    session: &Session,
    settings: &mut Settings,
    typed_token: &TypedToken,
    out: &mut Vec<AppCommand>,
) {
    ui.label(RichText::new("Broadcast this board").strong());
    if let Some(status) = session.broadcast_status() {
        ui.add(egui::Label::new(RichText::new(status).small()).wrap());
    }
    let choice = &mut settings.broadcast;
    let broadcasting = session.is_broadcasting();
    let mut table_changed = false;
    egui::Grid::new("broadcast table")
        .num_columns(2)
        .show(ui, |ui| {
            let field = |ui: &mut egui::Ui, name: &str, text: &mut String, hint: &str| {
                let label = ui.label(name);
                let response = ui
                    .add(
                        egui::TextEdit::singleline(text)
                            .hint_text(hint)
                            .desired_width(150.0),
                    )
                    .labelled_by(label.id);
                ui.end_row();
                response
            };
            for (name, text, hint) in [
                ("White", &mut choice.white, "name"),
                ("Black", &mut choice.black, "name"),
                ("Board", &mut choice.board, "number in the round"),
            ] {
                table_changed |= field(ui, name, text, hint).changed();
            }
            // The round is chosen before broadcasting, not during.
            if !broadcasting {
                field(ui, "Round", &mut choice.round, "its id or address").on_hover_text(
                    "A round of a lichess broadcast you may push to \
                     (lichess.org/broadcast/new); the token needs the study:write scope",
                );
            }
        });
    let table = choice.table();
    if broadcasting {
        if table_changed {
            out.push(AppCommand::SetTable(table));
        }
        if ui.button("Stop broadcasting").clicked() {
            out.push(AppCommand::StopBroadcast);
        }
        return;
    }
    let round = crate::online::broadcast::round_id(&choice.round);
    let button = ui
        .add_enabled(round.is_ok(), egui::Button::new("Broadcast"))
        .on_disabled_hover_text("Needs the round's id or address");
    if button.clicked()
        && let Ok(round) = round
    {
        out.push(AppCommand::SetTable(table));
        out.push(AppCommand::Broadcast(BroadcastTo {
            url: settings.online.lichess_url.clone(),
            token: typed_token.choice(),
            remember: typed_token.remember,
            ..BroadcastTo::lichess(&round)
        }));
    }
}
