//! The Online section: a lichess game played from the board. Before a game, the token
//! (from `LICHESS_TOKEN`, or typed here and kept only while the app runs), the opponent, the
//! clock and Play; during one, how it stands and its controls.

use eframe::egui;
use egui::RichText;

use super::command::AppCommand;
use super::settings::{OnlineOpponent, Settings};
use crate::online::{LICHESS_URL, Opponent, Order, Request};
use crate::session::{Offer, Session};

/// The token from the environment, if there is one.
pub fn token_from_environment() -> Option<String> {
    std::env::var(crate::cli::listen::TOKEN_VARIABLE)
        .ok()
        .map(|token| token.trim().to_owned())
        .filter(|token| !token.is_empty())
}

pub fn show(
    ui: &mut egui::Ui,
    session: &Session,
    settings: &mut Settings,
    typed_token: &mut String,
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
    let environment = token_from_environment();
    if environment.is_some() {
        ui.label(RichText::new("Token from LICHESS_TOKEN").small().weak());
    } else {
        ui.horizontal(|ui| {
            let label = ui.label("Token");
            ui.add(
                egui::TextEdit::singleline(typed_token)
                    .password(true)
                    .hint_text("lichess token (board:play)")
                    .desired_width(150.0),
            )
            .labelled_by(label.id)
            .on_hover_text(
                "Create one at lichess.org/account/oauth/token with the scope \"Play games \
                 with the board API\"; it is kept only while boardsight runs",
            );
        });
    }
    let choice = &mut settings.online;
    ui.horizontal(|ui| {
        ui.radio_value(&mut choice.opponent, OnlineOpponent::Ai, "AI");
        ui.radio_value(&mut choice.opponent, OnlineOpponent::Seek, "Seek");
        ui.radio_value(&mut choice.opponent, OnlineOpponent::Player, "Player");
    });
    match choice.opponent {
        OnlineOpponent::Ai => {
            ui.add(egui::Slider::new(&mut choice.ai_level, 1..=8).text("AI level"));
        }
        OnlineOpponent::Player => {
            ui.horizontal(|ui| {
                let label = ui.label("Name");
                ui.add(
                    egui::TextEdit::singleline(&mut choice.player)
                        .hint_text("their lichess name")
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
    let token = environment.unwrap_or_else(|| typed_token.trim().to_owned());
    let clock = choice.time_control.parse();
    let opponent = match choice.opponent {
        OnlineOpponent::Ai => Some(Opponent::Ai(choice.ai_level.clamp(1, 8))),
        OnlineOpponent::Seek => Some(Opponent::Seek),
        OnlineOpponent::Player => Some(Opponent::Player(choice.player.trim().to_owned()))
            .filter(|_| !choice.player.trim().is_empty()),
    };
    let ready = !token.is_empty() && clock.is_ok() && opponent.is_some() && session.is_live();
    let button = ui
        .add_enabled(ready, egui::Button::new("Play on lichess"))
        .on_disabled_hover_text("Needs a token, an opponent, a clock such as 10+5 and a board");
    if button.clicked()
        && let (Ok(clock), Some(opponent)) = (clock, opponent)
    {
        out.push(AppCommand::PlayOnline {
            request: Request {
                opponent,
                clock,
                rated: choice.rated,
            },
            url: LICHESS_URL.to_owned(),
            token,
        });
    }
}
