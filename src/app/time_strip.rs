//! The time strip of a recording, after rerun's time panel: markers for moves and the
//! rest, bands where a move was in progress or the board illegal, the playhead, and below
//! it one lane per square that changed, a bar where it read occupied. Click or drag the
//! strip to seek; the wheel zooms, a drag on the lanes (or a sideways scroll) pans; a click
//! on a lane's square picks it out on the sensor grid.

use eframe::egui;
use egui::{Color32, Pos2, Rect, Sense, Stroke, Vec2};
use shakmaty::Square;

use super::command::AppCommand;
use crate::reading::Millis;
use crate::sensorlog;
use crate::session::Timeline;
use crate::session::{BandKind, MarkerKind, Summary};

/// The span of the recording in view, in milliseconds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimeRange {
    pub start: f64,
    pub end: f64,
}

/// The narrowest span a zoom shows.
const MIN_SPAN_MS: f64 = 200.0;
const STRIP_HEIGHT: f32 = 44.0;
const LANE_HEIGHT: f32 = 11.0;
const LANE_LABEL: f32 = 34.0;
const PLAYHEAD: Color32 = Color32::from_rgb(230, 60, 60);

impl TimeRange {
    pub fn whole(end: Millis) -> Self {
        Self {
            start: 0.0,
            end: (end as f64).max(MIN_SPAN_MS),
        }
    }

    fn span(&self) -> f64 {
        self.end - self.start
    }

    fn x(&self, t: f64, rect: Rect) -> f32 {
        rect.left() + ((t - self.start) / self.span()) as f32 * rect.width()
    }

    fn t(&self, x: f32, rect: Rect) -> f64 {
        self.start + f64::from((x - rect.left()) / rect.width()) * self.span()
    }

    /// Zooms by `factor` (below 1 zooms in) around time `at`, within the recording.
    pub fn zoom(&mut self, factor: f64, at: f64, end: Millis) {
        let whole = Self::whole(end);
        let span = (self.span() * factor).clamp(MIN_SPAN_MS, whole.span());
        let share = (at - self.start) / self.span();
        self.start = at - share * span;
        self.end = self.start + span;
        self.keep_within(whole);
    }

    /// Moves the view by `dt` milliseconds, within the recording.
    pub fn pan(&mut self, dt: f64, end: Millis) {
        self.start += dt;
        self.end += dt;
        self.keep_within(Self::whole(end));
    }

    fn keep_within(&mut self, whole: Self) {
        let span = self.span().min(whole.span());
        self.start = self.start.clamp(whole.start, whole.end - span);
        self.end = self.start + span;
    }
}

/// What the strip needs from the app, and may change.
pub struct StripState<'a> {
    pub range: &'a mut Option<TimeRange>,
    pub highlight: Option<Square>,
}

pub fn show(
    ui: &mut egui::Ui,
    timeline: &Timeline,
    state: StripState<'_>,
    out: &mut Vec<AppCommand>,
) {
    let Some(summary) = timeline.summary() else {
        return;
    };
    let range = state
        .range
        .get_or_insert_with(|| TimeRange::whole(summary.end));
    let width = ui.available_width();
    let (strip, response) =
        ui.allocate_exact_size(Vec2::new(width, STRIP_HEIGHT), Sense::click_and_drag());
    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Slider, true, "time strip"));
    let track = Rect::from_min_max(
        Pos2::new(strip.left() + LANE_LABEL, strip.top()),
        strip.right_bottom(),
    );
    draw_strip(ui, summary, range, track, timeline.time());
    // Click or drag to seek.
    if (response.clicked() || response.dragged())
        && let Some(pointer) = response.interact_pointer_pos()
    {
        // The last pixels mean the end of the view: its last reading is reachable.
        let t = if pointer.x >= track.right() - 2.0 {
            range.end
        } else {
            range.t(pointer.x, track).max(0.0)
        } as Millis;
        let index = timeline.index_at(t);
        if index != timeline.index() {
            out.push(AppCommand::Seek(index));
        }
    }
    if let Some(pointer) = response.hover_pos() {
        let text = hover_text(timeline, summary, range, track, pointer.x);
        response.on_hover_text_at_pointer(text);
    }
    zoom_and_pan(ui, range, track, summary.end, strip);
    lanes(
        ui,
        timeline,
        summary,
        range,
        track.left(),
        state.highlight,
        out,
    );
}

fn draw_strip(ui: &egui::Ui, summary: &Summary, range: &TimeRange, track: Rect, now: Millis) {
    let painter = ui.painter_at(track.expand(1.0));
    let visuals = ui.visuals();
    painter.rect_filled(track, 2.0, visuals.extreme_bg_color);
    for kind in [BandKind::InProgress, BandKind::Illegal] {
        let color = match kind {
            BandKind::InProgress => Color32::from_rgba_unmultiplied(230, 200, 40, 90),
            BandKind::Illegal => Color32::from_rgba_unmultiplied(220, 40, 40, 120),
        };
        let spans = summary
            .bands
            .iter()
            .filter(|band| band.kind == kind)
            .map(|band| (band.from as f64, band.to as f64));
        for (from, to) in pixel_runs(spans, range, track) {
            painter.rect_filled(
                Rect::from_x_y_ranges(from..=to, track.y_range()),
                0.0,
                color,
            );
        }
    }
    let font = egui::FontId::proportional(11.0);
    let mut free_from = f32::NEG_INFINITY;
    // One line per pixel column and kind: a whole recording has thousands of moves.
    let mut drawn_at: Vec<(MarkerKind, f32)> = Vec::new();
    for marker in &summary.markers {
        let x = range.x(marker.t as f64, track);
        if x < track.left() || x > track.right() {
            continue;
        }
        let color = marker_color(marker.kind);
        let drawn = drawn_at.iter_mut().find(|(kind, _)| *kind == marker.kind);
        match drawn {
            Some((_, at)) if x - *at < 1.0 => continue,
            Some((_, at)) => *at = x,
            None => drawn_at.push((marker.kind, x)),
        }
        let top = track.top()
            + if marker.kind == MarkerKind::Move {
                16.0
            } else {
                4.0
            };
        painter.line_segment(
            [Pos2::new(x, top), Pos2::new(x, track.bottom())],
            Stroke::new(2.0, color),
        );
        // Labels where there is room, left to right.
        if marker.kind == MarkerKind::Move && x > free_from {
            let galley =
                painter.layout_no_wrap(marker.label.clone(), font.clone(), visuals.text_color());
            let width = galley.size().x;
            painter.galley(Pos2::new(x + 2.0, track.top() + 2.0), galley, color);
            free_from = x + width + 6.0;
        }
    }
    let x = range.x(now as f64, track);
    if (track.left()..=track.right()).contains(&x) {
        painter.line_segment(
            [Pos2::new(x, track.top()), Pos2::new(x, track.bottom())],
            Stroke::new(2.0, PLAYHEAD),
        );
    }
}

/// Time spans (in order of their start) as they fall on the track, at least a pixel wide
/// (a flicker is what is looked for) and merged where less than a pixel apart: a long
/// recording seen whole draws one shape per run of pixels, not one per reading.
fn pixel_runs(
    spans: impl Iterator<Item = (f64, f64)>,
    range: &TimeRange,
    track: Rect,
) -> Vec<(f32, f32)> {
    let mut runs: Vec<(f32, f32)> = Vec::new();
    for (from, to) in spans {
        if to < range.start {
            continue;
        }
        if from > range.end {
            break;
        }
        let x0 = range.x(from, track).max(track.left());
        let x1 = range.x(to, track).min(track.right()).max(x0 + 1.0);
        match runs.last_mut() {
            Some((_, end)) if x0 < *end + 1.0 => *end = end.max(x1),
            _ => runs.push((x0, x1)),
        }
    }
    runs
}

fn marker_color(kind: MarkerKind) -> Color32 {
    match kind {
        MarkerKind::Move => Color32::from_rgb(60, 170, 90),
        MarkerKind::NewGame => Color32::from_rgb(120, 120, 220),
        MarkerKind::Revised => Color32::from_rgb(230, 140, 30),
        MarkerKind::TakenBack => Color32::from_rgb(200, 80, 200),
        MarkerKind::Ambiguous => Color32::from_rgb(240, 200, 30),
        MarkerKind::Finding => Color32::from_rgb(230, 60, 60),
    }
}

/// The time under the pointer, the marker there if any, and the reading in force.
fn hover_text(
    timeline: &Timeline,
    summary: &Summary,
    range: &TimeRange,
    track: Rect,
    x: f32,
) -> String {
    let t = range.t(x, track).max(0.0);
    let mut text = format!("{:.3} s", t / 1000.0);
    let near = summary
        .markers
        .iter()
        .filter(|m| (range.x(m.t as f64, track) - x).abs() <= 5.0)
        .min_by_key(|m| (range.x(m.t as f64, track) - x).abs() as u32);
    if let Some(marker) = near {
        text.push_str(&format!(
            "\n{} at {:.3} s",
            marker.label,
            marker.t as f64 / 1000.0
        ));
    }
    if let Some(reading) = timeline.reading_at(t as Millis) {
        text.push_str(&format!(
            "\nreading: {}",
            sensorlog::format_reading(reading)
        ));
    }
    text
}

fn zoom_and_pan(ui: &egui::Ui, range: &mut TimeRange, track: Rect, end: Millis, area: Rect) {
    let hovered = ui.rect_contains_pointer(area.with_max_y(ui.max_rect().bottom()));
    if !hovered {
        return;
    }
    let (scroll, pointer) = ui.input(|i| (i.smooth_scroll_delta, i.pointer.hover_pos()));
    if scroll.y != 0.0
        && let Some(pointer) = pointer
    {
        let at = range.t(pointer.x, track);
        range.zoom((-f64::from(scroll.y) / 200.0).exp(), at, end);
    }
    if scroll.x != 0.0 {
        let dt = -f64::from(scroll.x) / f64::from(track.width()) * range.span();
        range.pan(dt, end);
    }
}

fn lanes(
    ui: &mut egui::Ui,
    timeline: &Timeline,
    summary: &Summary,
    range: &mut TimeRange,
    track_left: f32,
    highlight: Option<Square>,
    out: &mut Vec<AppCommand>,
) {
    if summary.lanes.is_empty() {
        return;
    }
    let height = summary.lanes.len() as f32 * LANE_HEIGHT;
    let width = ui.available_width();
    egui::ScrollArea::vertical()
        .id_salt("lanes")
        .max_height(ui.available_height().max(3.0 * LANE_HEIGHT))
        .show(ui, |ui| {
            let (area, response) =
                ui.allocate_exact_size(Vec2::new(width, height), Sense::click_and_drag());
            let track = Rect::from_min_max(Pos2::new(track_left, area.top()), area.right_bottom());
            if response.dragged() {
                let dt =
                    -f64::from(response.drag_delta().x) / f64::from(track.width()) * range.span();
                range.pan(dt, summary.end);
            }
            let painter = ui.painter_at(area);
            let text = ui.visuals().text_color();
            let bar = ui.visuals().widgets.inactive.fg_stroke.color;
            for (row, lane) in summary.lanes.iter().enumerate() {
                let top = area.top() + row as f32 * LANE_HEIGHT;
                let label = Rect::from_min_size(
                    Pos2::new(area.left(), top),
                    Vec2::new(LANE_LABEL - 4.0, LANE_HEIGHT),
                );
                let picked = highlight == Some(lane.square);
                let name = ui.interact(
                    label,
                    ui.scope_id().with(("lane", lane.square)),
                    Sense::click(),
                );
                name.widget_info(|| {
                    egui::WidgetInfo::selected(
                        egui::Role::Button,
                        true,
                        picked,
                        format!("lane {}", lane.square),
                    )
                });
                if name.clicked() {
                    out.push(AppCommand::Highlight((!picked).then_some(lane.square)));
                }
                let color = if picked { PLAYHEAD } else { text };
                painter.text(
                    label.left_center(),
                    egui::Align2::LEFT_CENTER,
                    lane.square.to_string(),
                    egui::FontId::monospace(10.0),
                    color,
                );
                let first = lane
                    .occupied
                    .partition_point(|&(_, to)| (to as f64) < range.start);
                let spans = lane.occupied[first..]
                    .iter()
                    .map(|&(from, to)| (from as f64, to as f64));
                for (x0, x1) in pixel_runs(spans, range, track) {
                    let rect =
                        Rect::from_x_y_ranges(x0..=x1, (top + 2.0)..=(top + LANE_HEIGHT - 2.0));
                    painter.rect_filled(rect, 0.0, if picked { PLAYHEAD } else { bar });
                }
            }
            let x = range.x(timeline.time() as f64, track);
            if (track.left()..=track.right()).contains(&x) {
                painter.line_segment(
                    [Pos2::new(x, area.top()), Pos2::new(x, area.bottom())],
                    Stroke::new(1.0, PLAYHEAD),
                );
            }
        });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zooming_keeps_the_time_under_the_pointer_and_stays_within_the_recording() {
        let mut range = TimeRange::whole(10_000);
        range.zoom(0.5, 2_000.0, 10_000);
        assert!((range.start - 1_000.0).abs() < 1e-6 && (range.end - 6_000.0).abs() < 1e-6);
        range.pan(-5_000.0, 10_000);
        assert_eq!((range.start, range.end), (0.0, 5_000.0));
        range.zoom(100.0, 0.0, 10_000);
        assert_eq!((range.start, range.end), (0.0, 10_000.0));
        range.zoom(1e-9, 5_000.0, 10_000);
        assert!((range.span() - MIN_SPAN_MS).abs() < 1e-6);
    }
}
