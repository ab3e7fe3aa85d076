//! The two themes, each designed (not one inverted): panel and accent colours, and the
//! colours of status that stay apart for colour-blind eyes (the Okabe–Ito palette).

use eframe::egui;
use egui::{Color32, Visuals};

/// Colours that carry meaning, per theme.
#[derive(Clone, Copy, Debug)]
pub struct Palette {
    pub good: Color32,
    pub pending: Color32,
    pub bad: Color32,
    pub accent: Color32,
}

impl Palette {
    pub fn of(dark: bool) -> Self {
        if dark {
            Self {
                good: Color32::from_rgb(0x2f, 0xb8, 0x8c),
                pending: Color32::from_rgb(0xe6, 0x9f, 0x00),
                bad: Color32::from_rgb(0xf0, 0x6a, 0x2a),
                accent: Color32::from_rgb(0x56, 0xb4, 0xe9),
            }
        } else {
            Self {
                good: Color32::from_rgb(0x00, 0x7a, 0x5a),
                pending: Color32::from_rgb(0xa8, 0x6a, 0x00),
                bad: Color32::from_rgb(0xc0, 0x45, 0x00),
                accent: Color32::from_rgb(0x00, 0x62, 0xa8),
            }
        }
    }
}

/// The app's look in the dark or the light.
pub fn visuals(dark: bool) -> Visuals {
    let palette = Palette::of(dark);
    let mut visuals = if dark {
        let mut v = Visuals::dark();
        v.panel_fill = Color32::from_rgb(0x23, 0x26, 0x2b);
        v.window_fill = Color32::from_rgb(0x2a, 0x2e, 0x34);
        v.extreme_bg_color = Color32::from_rgb(0x17, 0x19, 0x1c);
        v.faint_bg_color = Color32::from_rgb(0x2c, 0x30, 0x36);
        v
    } else {
        let mut v = Visuals::light();
        v.panel_fill = Color32::from_rgb(0xf4, 0xf1, 0xea);
        v.window_fill = Color32::from_rgb(0xfb, 0xfa, 0xf6);
        v.extreme_bg_color = Color32::from_rgb(0xff, 0xff, 0xff);
        v.faint_bg_color = Color32::from_rgb(0xea, 0xe5, 0xda);
        v
    };
    visuals.selection.bg_fill = palette
        .accent
        .gamma_multiply(if dark { 0.55 } else { 0.35 });
    visuals.selection.stroke.color = if dark {
        Color32::WHITE
    } else {
        Color32::from_rgb(0x10, 0x2a, 0x43)
    };
    visuals.hyperlink_color = palette.accent;
    visuals.widgets.hovered.corner_radius = 4.into();
    visuals.widgets.inactive.corner_radius = 4.into();
    visuals.widgets.active.corner_radius = 4.into();
    visuals.window_corner_radius = 8.into();
    visuals
}

/// Sets both themes on `ctx` and picks one.
pub fn install(ctx: &egui::Context, dark: bool) {
    ctx.set_visuals_of(egui::Theme::Dark, visuals(true));
    ctx.set_visuals_of(egui::Theme::Light, visuals(false));
    ctx.set_theme(if dark {
        egui::Theme::Dark
    } else {
        egui::Theme::Light
    });
}
