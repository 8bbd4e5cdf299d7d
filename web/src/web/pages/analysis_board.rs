//! The analysis board (`/analysis`): a position from a game, a variant's start or a pasted
//! position and rules string, where both sides' moves may be tried and variations branched.
//! The whole board is its address (start, moves, the move shown): the page's script asks for
//! the changing part at each step (`/analysis/board?...&play=` or `&at=`) and puts the new
//! address in the bar, so "Share" is that address. The referee decides every move; the
//! engine's line comes through the engine queue (`/analysis/engine`, signed in). With
//! `plan=ID` a player plans conditional moves in their game on it (`analysis_plan.rs`); a
//! board from a finished game shows the game's notes at the move shown (`analysis_notes.rs`).

use std::convert::Infallible;

use axum::body::Body;
use axum::extract::{Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use maud::{Markup, PreEscaped, html};
use serde::Deserialize;
use tafl_engine::Outcome;

use crate::AppState;
use crate::domain::GameId;
use crate::service::analysis::board::{
    BoardAsk, BoardFrom, BoardView, EngineLineView, MoveTree, StartAsked, board_path,
};
use crate::service::{ConditionalPlan, ServiceError};

use super::super::board_svg::{BoardLook, ThemeChoice, scene_svg};
use super::super::error::{Plain, WebError};
use super::super::form::WebForm;
use super::super::layout::{Me, csrf_field, page_with};
use super::super::result_words::result_in_words;
use super::super::session::{MaybeSignedIn, SignedIn};
use super::analysis_notes::{NotesShown, notes_on_board, notes_part, with_notes};
use super::analysis_plan::{plan_box, plan_start};
use super::me_of;

/// The address of a board: what `/analysis` and its parts read.
#[derive(Debug, Default, Deserialize)]
pub struct BoardAddress {
    variant: Option<String>,
    rules: Option<String>,
    position: Option<String>,
    to_move: Option<String>,
    moves: Option<String>,
    /// The move shown: its number in `moves` (0: the start).
    at: Option<String>,
    /// Or a game's moves, shown at `ply`.
    game: Option<String>,
    ply: Option<String>,
    /// A move to play from the one shown.
    play: Option<String>,
    /// `1`: turned half a turn.
    flip: Option<String>,
    /// `dark`: the renderer's dark theme.
    theme: Option<String>,
    /// A game of the viewer's whose conditional moves are planned on this board (its
    /// position now is the start when the address names none).
    plan: Option<String>,
    /// A finished game whose notes the board shows (kept from a board opened from a game).
    notes: Option<String>,
}

impl BoardAddress {
    /// How the board is drawn, as on a game's page.
    fn look(&self) -> BoardLook {
        BoardLook {
            flip: matches!(self.flip.as_deref(), Some("1" | "true")),
            theme: match self.theme.as_deref() {
                Some("dark") => ThemeChoice::Dark,
                _ => ThemeChoice::Light,
            },
        }
    }

    /// The game named by `plan`, if any.
    fn plan_game(&self) -> Result<Option<GameId>, ServiceError> {
        match self
            .plan
            .as_deref()
            .map(str::trim)
            .filter(|t| !t.is_empty())
        {
            None => Ok(None),
            Some(text) => text.parse::<i64>().map(|id| Some(GameId(id))).map_err(|_| {
                ServiceError::Invalid(format!(
                    "the game planned (plan) must be a number, not {text:?}"
                ))
            }),
        }
    }

    /// The game whose notes `board` shows: the one it was opened from, else `notes`.
    fn notes_game(&self, board: &BoardView) -> Option<GameId> {
        board.from_game.map(|(game, _)| game).or_else(|| {
            self.notes
                .as_deref()
                .and_then(|t| t.trim().parse::<i64>().ok())
                .map(GameId)
        })
    }

    /// The start the address names.
    fn start(&self) -> StartAsked {
        let given = |text: &Option<String>| text.clone().filter(|t| !t.trim().is_empty());
        StartAsked {
            variant: given(&self.variant),
            rules: given(&self.rules),
            position: given(&self.position),
            to_move: given(&self.to_move),
        }
    }

    /// Starts the board at `start` (a planned game's position now): an address that starts
    /// elsewhere (the game moved on since it was written) loses its moves too.
    fn start_at(&mut self, start: StartAsked) {
        let no_game = self.game.as_deref().is_none_or(|t| t.trim().is_empty());
        if no_game && self.start() == start {
            return;
        }
        self.game = None;
        self.moves = None;
        self.at = None;
        self.variant = start.variant;
        self.rules = start.rules;
        self.position = start.position;
        self.to_move = start.to_move;
    }

    /// Nothing named: the page offers the choice of a start.
    fn is_empty(&self) -> bool {
        [&self.variant, &self.rules, &self.position, &self.game]
            .iter()
            .all(|p| p.as_deref().is_none_or(|t| t.trim().is_empty()))
    }

    pub(super) fn ask(&self) -> Result<BoardAsk, ServiceError> {
        let number = |what: &str, text: &Option<String>| {
            text.as_deref()
                .filter(|t| !t.trim().is_empty())
                .map(|t| {
                    t.trim().parse::<u32>().map_err(|_| {
                        ServiceError::Invalid(format!("{what} must be a number, not {t:?}"))
                    })
                })
                .transpose()
        };
        let from = match number("the game", &self.game)? {
            Some(id) => BoardFrom::Game {
                id: GameId(i64::from(id)),
                ply: number("the move shown (ply)", &self.ply)?,
            },
            None => BoardFrom::Start(StartAsked {
                variant: self.variant.clone(),
                rules: self.rules.clone(),
                position: self.position.clone(),
                to_move: self.to_move.clone(),
            }),
        };
        Ok(BoardAsk {
            from,
            moves: self.moves.clone().unwrap_or_default(),
            at: number("the move shown (at)", &self.at)?.map(|n| n as usize),
            play: self.play.clone().filter(|p| !p.trim().is_empty()),
        })
    }
}

/// A new board whose start is the position `board` shows.
fn board_from_here(board: &BoardView) -> String {
    let start = board.start.asked();
    let position = board.shown.position();
    let here = StartAsked {
        position: Some(position.to_opentafl()),
        to_move: Some(position.side_to_move().as_str().to_owned()),
        ..start
    };
    board_path(&here, "", 0)
}

/// `GET /analysis`: the board named by the address, or the choice of a start; a broken
/// address is explained on the page, with the choice.
pub async fn analysis_page(
    State(state): State<AppState>,
    MaybeSignedIn(session): MaybeSignedIn,
    Query(mut address): Query<BoardAddress>,
) -> Result<Response, WebError> {
    let me = me_of(&state, session.as_ref()).await?;
    let plan = planned(&state, session.as_ref(), &address).await?;
    if let Plan::Open(plan) = &plan {
        address.start_at(plan_start(plan));
    }
    if address.is_empty() {
        let body = html! {
            h1 { "Analysis board" }
            @if let Plan::Refused(why) = &plan { (plan_refused(why)) }
            (start_form(None))
        };
        return Ok(page_with("Analysis board", me.as_ref(), body, None).into_response());
    }
    let viewer = session.as_ref().map(|s| s.player);
    let board = match address.ask() {
        Ok(ask) => state.service.analysis().board(viewer, ask).await,
        Err(e) => Err(e),
    };
    let board = match board {
        Ok(board) => board,
        Err(ServiceError::Internal(e)) => return Err(ServiceError::Internal(e).into()),
        Err(refused) => {
            let status = crate::status_of(&refused);
            let body = html! {
                h1 { "Analysis board" }
                p.error #board-refused role="alert" { "This board cannot be opened: " (refused) "." }
                (start_form(Some(&address)))
            };
            return Ok(
                (status, page_with("Analysis board", me.as_ref(), body, None)).into_response(),
            );
        }
    };
    let look = address.look();
    let notes = notes_on_board(&state, viewer, address.notes_game(&board), &board).await?;
    let body = html! {
        link rel="stylesheet" href=(super::super::assets::ANALYSIS_STYLE_URL);
        div.game.analysis-board data-analysis-board data-plan=[plan.game()] {
            section #board-area aria-label="Board" {
                (live_part(&board, look, notes.as_ref()))
                p #move-error .error role="alert" aria-live="assertive" {}
            }
            section {
                h1 { "Analysis board" }
                p {
                    (board.start.name())
                    @if let Some((game, from)) = board.from_game {
                        " · from " a href={ "/games/" (game) } { "game " (game) }
                        @if from > 0 { " (its moves from move " (from + 1) ")" }
                    }
                }
                div.controls role="group" aria-label="Moves" {
                    button type="button" data-step="first" title="The start (Home)" { "«" }
                    button type="button" data-step="prev" title="Previous move (←)" { "‹" }
                    button type="button" data-step="next" title="Next move (→)" { "›" }
                    button type="button" data-step="last" title="End of this line (End)" { "»" }
                    button #flip type="button" title="Turn the board around" { "Flip" }
                    button #share type="button" title="A link that reopens this board" { "Share" }
                }
                div #share-box hidden {
                    label for="share-link" { "Link to this board (its moves, variations and the move shown):" }
                    input #share-link readonly value=(board.link());
                    p #share-said role="status" {}
                }
                @match (&plan, me.as_ref()) {
                    (Plan::Open(plan), Some(me)) => {
                        (plan_box(me, plan))
                        p #engine { small { "The engine is off while you plan: the game is still being played against a person." } }
                    },
                    (Plan::Refused(why), _) => {
                        (plan_refused(why))
                        (engine_box(me.as_ref(), &board))
                    },
                    _ => (engine_box(me.as_ref(), &board)),
                }
                p { small { "Move pieces for either side: click a piece, then where it goes (or drag it, or use the arrow keys and Enter on the board). A move from an earlier position starts a variation. Keys: ← → step back and on, Home and End." } }
                details {
                    summary { "Start from another position" }
                    (start_form(None))
                }
            }
        }
    };
    Ok(page_with(
        "Analysis board",
        me.as_ref(),
        body,
        Some(super::super::assets::ANALYSIS_URL),
    )
    .into_response())
}

/// The conditional moves planned on a board (`plan=ID`).
enum Plan {
    /// None asked, or no one signed in to plan them.
    None,
    Open(Box<ConditionalPlan>),
    /// Asked but refused (not the viewer's game, their move, ...): why, in words.
    Refused(String),
}

impl Plan {
    fn game(&self) -> Option<GameId> {
        match self {
            Plan::Open(plan) => Some(plan.game_id),
            Plan::None | Plan::Refused(_) => None,
        }
    }
}

/// Why the plan asked for cannot be made, beside the board.
fn plan_refused(why: &str) -> Markup {
    html! {
        p.error #plan-refused role="alert" { "Conditional moves cannot be queued here: " (why) "." }
    }
}

/// The plan the address asks for, as the signed-in viewer may make it.
async fn planned(
    state: &AppState,
    session: Option<&SignedIn>,
    address: &BoardAddress,
) -> Result<Plan, WebError> {
    let (Some(session), Some(game)) = (session, address.plan_game()?) else {
        return Ok(Plan::None);
    };
    match state
        .service
        .games()
        .conditional_plan(session.player, game)
        .await
    {
        Ok(plan) => Ok(Plan::Open(Box::new(plan))),
        Err(ServiceError::Internal(e)) => Err(ServiceError::Internal(e).into()),
        Err(refused) => Ok(Plan::Refused(refused.to_string())),
    }
}

/// `GET /analysis/board?...`: the changing part alone, after the move `play` when given; a
/// refusal is a line of text for the page to show beside the board.
pub async fn board_part(
    State(state): State<AppState>,
    MaybeSignedIn(session): MaybeSignedIn,
    Query(address): Query<BoardAddress>,
) -> Result<Response, Plain> {
    let viewer = session.as_ref().map(|s| s.player);
    let board = state
        .service
        .analysis()
        .board(viewer, address.ask()?)
        .await?;
    let notes = notes_on_board(&state, viewer, address.notes_game(&board), &board).await?;
    Ok(Html(live_part(&board, address.look(), notes.as_ref()).into_string()).into_response())
}

#[derive(Debug, Deserialize)]
pub struct EngineForm {
    csrf: Option<String>,
    #[serde(flatten)]
    address: BoardAddress,
}

/// Parts of the engine's answer are separated by this line: the page shows the last whole one.
const PART_END: &str = "\n<!--part-->\n";

/// `POST /analysis/engine`: the engine's line for the position shown. The answer comes in
/// parts: the place in line first when the search must wait, then the line (or why not).
pub async fn ask_engine(
    State(state): State<AppState>,
    session: SignedIn,
    headers: HeaderMap,
    WebForm(form): WebForm<EngineForm>,
) -> Result<Response, Plain> {
    session.check_csrf(&headers, form.csrf.as_deref())?;
    let analysis = state.service.analysis();
    let board = analysis
        .board(Some(session.player), form.address.ask()?)
        .await?;
    let search = analysis.board_search(session.player, &board)?;
    let ply = board.shown.ply();
    let (parts, body) = tokio::sync::mpsc::channel::<Result<String, Infallible>>(2);
    tokio::spawn(async move {
        let waiting = parts.clone();
        let found = search.run(move |place| {
            let _ = waiting.try_send(Ok(engine_part(&EngineState::Waiting(place), ply)));
        });
        // A page that goes away gives its place in line back.
        let answer = tokio::select! {
            found = found => found,
            () = parts.closed() => return,
        };
        let shown = match answer {
            Ok(line) => EngineState::Found(line),
            Err(e) => {
                if let ServiceError::Internal(_) = &e {
                    e.log_failure("analysis board search");
                }
                EngineState::Refused(e.to_string())
            }
        };
        let _ = parts.send(Ok(engine_part(&shown, ply))).await;
    });
    let stream = tokio_stream::wrappers::ReceiverStream::new(body);
    Ok((
        StatusCode::OK,
        [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
        Body::from_stream(stream),
    )
        .into_response())
}

enum EngineState {
    Waiting(usize),
    Found(EngineLineView),
    Refused(String),
}

/// One part of the engine's answer, with the separator after it.
fn engine_part(state: &EngineState, ply: u32) -> String {
    let part = html! {
        div #engine-answer role="status" {
            @match state {
                EngineState::Waiting(place) => p { "Waiting for the engine: number " (place) " in line." },
                EngineState::Refused(why) => p.error { "The engine did not answer: " (why) "." },
                EngineState::Found(line) => {
                    p #engine-eval {
                        "Engine (depth " (line.depth) "): "
                        @match &line.forced {
                            Some(forced) => { "proved: " strong { (forced) } "." },
                            None => {
                                "the defenders' chance " strong { (format!("{:.0}", line.defenders_chance)) "%" }
                                ", the attackers' " (format!("{:.0}", 100.0 - line.defenders_chance)) "%."
                            },
                        }
                    }
                    @if let Some(best) = &line.best {
                        p #engine-line { "Best: " strong { (best) } ". Line: " (numbered(&line.line, ply)) }
                    }
                }
            }
        }
    };
    format!("{}{PART_END}", part.into_string())
}

/// "3. d1-c1 d3-e3 4. a4-a2": a line from the position after `ply` moves.
pub(super) fn numbered(moves: &[String], ply: u32) -> String {
    let mut out = String::new();
    for (i, mv) in moves.iter().enumerate() {
        let at = ply + 1 + i as u32;
        if at % 2 == 1 {
            out.push_str(&format!("{}. ", at.div_ceil(2)));
        } else if i == 0 {
            out.push_str(&format!("{}… ", at / 2));
        }
        out.push_str(mv);
        out.push(' ');
    }
    out.trim_end().to_owned()
}

/// The "Engine" button, for a signed-in viewer (searches are counted per player).
fn engine_box(me: Option<&Me>, board: &BoardView) -> Markup {
    html! {
        div #engine {
            @if let Some(me) = me {
                form #engine-form method="post" action="/analysis/engine" {
                    (csrf_field(me))
                    button.primary type="submit" { "Engine" }
                    " " small { "its line and evaluation of the position shown" }
                }
                div #engine-out aria-live="polite" {}
            } @else {
                p { small { a href="/" { "Sign in" } " to ask the engine for its line." } }
            }
            @if board.shown.is_over() { p { small { "The game is over in this position." } } }
        }
    }
}

/// The part that changes: board, whose move, the move tree, a game's notes on the move shown;
/// its data say the legal moves and the address of what it shows.
fn live_part(board: &BoardView, look: BoardLook, notes: Option<&NotesShown>) -> Markup {
    let kept = notes.map(|n| n.game);
    let game = &board.shown;
    let last = game.history().last();
    let legal = serde_json::to_string(&board.legal).unwrap_or_else(|_| "[]".to_owned());
    let node = board.tree.node(board.at);
    let parent = node.map_or(0, |n| n.parent);
    let next = node.and_then(|n| n.children.first().copied());
    let options = tafl_render::RenderOptions {
        last_move: last.map(|r| r.mv),
        captured: last
            .map(|r| r.captures.iter().copied().chain(r.king_captured).collect())
            .unwrap_or_default(),
        warning: game.warning(),
        ..Default::default()
    };
    let svg = match tafl_render::scene_of(game.position(), game.rules(), &options) {
        Ok(scene) => scene_svg(&scene, look),
        Err(e) => format!("<p class=\"error\">cannot draw this board: {e}</p>"),
    };
    html! {
        div #live data-at=(board.at) data-legal=(legal) data-playing="true" data-link=(with_notes(&board.link(), kept))
            data-parent=(parent) data-next=[next] data-end=(board.tree.line_end(board.at)) {
            (PreEscaped(svg))
            p #board-alt .sr { "Position after " (game.ply()) " moves. " (super::super::board_svg::board_text(game.position())) }
            p.status role="status" aria-live="polite" {
                @if last.is_some() { "After " (board.notation.get(board.at).map_or("", String::as_str)) ". " }
                @match game.outcome() {
                    Some(outcome) => { "Game over. " span #result { (outcome_words(outcome)) } "." },
                    None => { (capitalized(game.side_to_move().as_str())) " to move." },
                }
                @if let Some(w) = game.warning() { " " strong.turn { (w.kind.shout()) } }
            }
            @if let Some(r) = last.filter(|r| !r.captures.is_empty()) {
                p { small { "Captured by that move: " (r.captures.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ")) "." } }
            }
            nav #tree aria-label="Moves and variations" {
                @if board.tree.moves() == 0 {
                    p { small { "No moves yet: play one for either side." } }
                } @else {
                    a.mv.start.at[board.at == 0] href=(link_at(board, 0, kept)) data-at="0" { "Start" }
                    " "
                    (line_after(board, 0, true, kept))
                }
            }
            @if let Some(notes) = notes { (notes_part(notes, |at| link_at(board, at, kept))) }
            p { small { a #from-here href=(board_from_here(board)) { "A new board from this position" } } }
        }
    }
}

/// The address of `board` showing node `at` (with the game whose notes it shows).
fn link_at(board: &BoardView, at: usize, notes: Option<GameId>) -> String {
    with_notes(
        &board_path(&board.start.asked(), &board.tree.to_text(), at),
        notes,
    )
}

/// The moves after `node`: its main continuation, each other continuation as a variation
/// (a block, nested as deep as it goes), then the main line on.
fn line_after(board: &BoardView, node: usize, numbered: bool, notes: Option<GameId>) -> Markup {
    let tree: &MoveTree = &board.tree;
    let Some((&main, others)) = tree.node(node).and_then(|n| n.children.split_first()) else {
        return html! {};
    };
    html! {
        (move_link(board, main, numbered, notes))
        " "
        @for &other in others {
            div.variation role="group" aria-label="Variation" {
                (move_link(board, other, true, notes)) " " (line_after(board, other, false, notes))
            }
        }
        (line_after(board, main, !others.is_empty(), notes))
    }
}

/// A move of the tree, numbered as the game page numbers turns: `3.` before the first
/// mover's move, `3…` before an answer that starts a line.
fn move_link(board: &BoardView, id: usize, numbered: bool, notes: Option<GameId>) -> Markup {
    let Some(node) = board.tree.node(id) else {
        return html! {};
    };
    let ply = node.depth;
    let number = if ply % 2 == 1 {
        Some(format!("{}.", ply.div_ceil(2)))
    } else {
        numbered.then(|| format!("{}…", ply / 2))
    };
    let text = board
        .notation
        .get(id)
        .map_or(node.text.as_str(), String::as_str);
    html! {
        a.mv.at[id == board.at] href=(link_at(board, id, notes)) data-at=(id)
            aria-current=[(id == board.at).then_some("step")] {
            @if let Some(n) = number { span.n { (n) " " } }
            (text)
        }
    }
}

/// "The defenders won: the king escaped", as the game page says it to a spectator.
fn outcome_words(outcome: &Outcome) -> String {
    let (winner, reason) = crate::domain::ResultReason::of_outcome(outcome);
    result_in_words(&crate::service::ResultView { winner, reason }, None)
}

fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// Where to start: a variant, or a pasted position and rules string. A form that reads the
/// address (GET), so its answer is a board's address too.
fn start_form(asked: Option<&BoardAddress>) -> Markup {
    let kept = |f: fn(&BoardAddress) -> &Option<String>| {
        asked.and_then(|a| f(a).clone()).unwrap_or_default()
    };
    let chosen = kept(|a| &a.variant);
    html! {
        form.stack #start-form method="get" action="/analysis" {
            label {
                "Variant"
                select name="variant" {
                    option value="" selected[chosen.is_empty()] { "(the rules string below)" }
                    @for v in tafl_engine::variants() {
                        option value=(v.id) selected[chosen == v.id] { (v.name) }
                    }
                }
            }
            label {
                "Position (OpenTafl, first row is rank 1), or empty for the start"
                input name="position" value=(kept(|a| &a.position)) placeholder="/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/";
            }
            label {
                "To move"
                select name="to_move" {
                    option value="" { "as the rules say" }
                    option value="attackers" selected[kept(|a| &a.to_move) == "attackers"] { "the attackers" }
                    option value="defenders" selected[kept(|a| &a.to_move) == "defenders"] { "the defenders" }
                }
            }
            label {
                "Rules string (OpenTafl), when no variant is chosen"
                input name="rules" value=(kept(|a| &a.rules)) placeholder="dim:7 atkf:y ks:s ... start:/3t3/.../";
            }
            button.primary type="submit" { "Open the board" }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_link_names_only_what_the_board_needs_and_reads_back() {
        let start = StartAsked {
            variant: Some("brandubh".into()),
            ..Default::default()
        };
        let link = board_path(&start, "d1-c1 d3-e3 (d3-f3 c1-c3) a4-a2", 3);
        assert_eq!(
            link,
            "/analysis?variant=brandubh&moves=d1-c1+d3-e3+%28d3-f3+c1-c3%29+a4-a2&at=3"
        );
        let query = link.trim_start_matches("/analysis?");
        let read: BoardAddress = serde_urlencoded::from_str(query).unwrap();
        let ask = read.ask().unwrap();
        assert_eq!(ask.moves, "d1-c1 d3-e3 (d3-f3 c1-c3) a4-a2");
        assert_eq!(ask.at, Some(3));
        match ask.from {
            BoardFrom::Start(s) => assert_eq!(s, start),
            other => panic!("a start, not {other:?}"),
        }
        assert_eq!(board_path(&start, "", 0), "/analysis?variant=brandubh");
    }

    #[test]
    fn a_pasted_start_is_carried_whole() {
        let start = StartAsked {
            rules: Some("dim:7 start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/".into()),
            position: Some("/3t3/7/3T3/ttTKTtt/3T3/3t3/3t3/".into()),
            to_move: Some("defenders".into()),
            ..Default::default()
        };
        let link = board_path(&start, "", 0);
        let read: BoardAddress =
            serde_urlencoded::from_str(link.trim_start_matches("/analysis?")).unwrap();
        match read.ask().unwrap().from {
            BoardFrom::Start(s) => assert_eq!(s, start),
            other => panic!("a start, not {other:?}"),
        }
    }

    #[test]
    fn numbers_that_are_not_numbers_are_named() {
        let read: BoardAddress = serde_urlencoded::from_str("variant=brandubh&at=x").unwrap();
        let Err(ServiceError::Invalid(message)) = read.ask() else {
            panic!("at=x is not a number");
        };
        assert_eq!(message, "the move shown (at) must be a number, not \"x\"");
    }

    #[test]
    fn a_line_is_numbered_from_the_position_it_starts_in() {
        let line = ["d3-e3", "a4-a2", "e3-e2"].map(String::from);
        assert_eq!(numbered(&line, 1), "1… d3-e3 2. a4-a2 e3-e2");
        assert_eq!(numbered(&line[1..], 2), "2. a4-a2 e3-e2");
    }
}
