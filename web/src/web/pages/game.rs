//! A game's page: the board (SVG), whose turn, the deadline, the moves with replay, the move
//! box, resign and draws. The part that changes (`#live`) is also served alone, for a ply
//! (`/games/{id}/board?ply=`), so the page's script can redraw it after a move, on a live
//! event, or while stepping through the moves.

use axum::extract::{Path, Query, State};
use axum::http::HeaderMap;
use axum::response::{Html, IntoResponse, Redirect, Response};
use maud::{Markup, PreEscaped, html};
use serde::Deserialize;

use crate::AppState;
use crate::domain::{GameId, GameStatus, PlayerId};
use crate::service::{AnalysisView, GameBoard, MoveRequest, SeatView, ServiceError, variant_label};

use super::super::board_svg::{BoardLook, ThemeChoice, board_svg, board_text};
use super::super::error::{Plain, WebError};
use super::super::form::WebForm;
use super::super::layout::{Me, csrf_field, local_time, page_with};
use super::super::result_words::result_in_words;
use super::super::session::{MaybeSignedIn, SignedIn};
use super::game_analysis::{latest_analysis, move_mark, panel_for, ply_evaluation};
use super::me_of;

#[derive(Debug, Default, Deserialize)]
pub struct BoardQuery {
    /// The ply to show (default: the last).
    ply: Option<u32>,
    /// `1`: turned half a turn.
    flip: Option<String>,
    /// `dark`: the renderer's dark theme.
    theme: Option<String>,
}

impl BoardQuery {
    pub(super) fn look(&self) -> BoardLook {
        BoardLook {
            flip: self
                .flip
                .as_deref()
                .is_some_and(|f| f == "1" || f == "true"),
            theme: match self.theme.as_deref() {
                Some("dark") => ThemeChoice::Dark,
                _ => ThemeChoice::Light,
            },
        }
    }
}

/// `GET /games/{id}`: the whole page (anyone may watch a public game).
pub async fn game_page(
    State(state): State<AppState>,
    MaybeSignedIn(session): MaybeSignedIn,
    Path(id): Path<GameId>,
    Query(q): Query<BoardQuery>,
) -> Result<Response, WebError> {
    let me = me_of(&state, session.as_ref()).await?;
    let viewer = session.as_ref().map(|s| s.player);
    let shown = state.service.games().game_board(viewer, id, q.ply).await?;
    let analysis = latest_analysis(&state, viewer, id).await?;
    let panel = panel_for(
        &state,
        me.as_ref(),
        id,
        shown.game.ply,
        analysis.as_ref(),
        q.look().theme,
    )
    .await?;
    let next_game = next_game(&state, viewer, &shown).await?;
    let notes = super::study::notes_section(&state, me.as_ref(), id).await?;
    let v = &shown.game;
    let title = format!("{} vs {}", v.attackers.name, v.defenders.name);
    let body = html! {
        div.game data-game=(id) {
            section #board-area aria-label="Board" {
                (live_part(&shown, me.as_ref(), analysis.as_ref(), q.look(), next_game))
                // Next to the board at every width: a refused move's reason, "not your turn".
                p #move-error .error role="alert" aria-live="assertive" {}
            }
            section {
                h1 { (seat(&v.attackers)) " (attackers) vs " (seat(&v.defenders)) " (defenders)" }
                p {
                    @if let Some(variant) = &v.variant {
                        a href={ "/variants/" (variant) } { (variant) }
                    } @else { (variant_label(None)) }
                    " · " (v.clock)
                    " · " @if v.rated { "rated" } @else { "casual" }
                    @if v.private { " · private" }
                }
                div.controls role="group" aria-label="Replay" {
                    button type="button" data-step="first" title="First position (Home)" { "«" }
                    button type="button" data-step="prev" title="Previous move (←)" { "‹" }
                    button type="button" data-step="next" title="Next move (→)" { "›" }
                    button type="button" data-step="last" title="Current position (End)" { "»" }
                    button #flip type="button" title="Turn the board around" { "Flip" }
                }
                // Only for a player of a game still going; hidden by the script when the game
                // ends while the page is open.
                @if v.your_side.is_some() && v.status == GameStatus::Active {
                    div #move-box {
                        form #move-form .moveform autocomplete="off" {
                            label.sr for="move-text" { "Your move" }
                            input #move-text name="move" placeholder="e.g. e5-e8" aria-describedby="move-error";
                            button.primary type="submit" { "Play" }
                        }
                        p { small { "Type a move such as " code { "d1-d3" } " and Enter, or click a piece and its destination." } }
                    }
                }
                p { small { "Keys: ← → step through the moves, Home and End." } }
                (panel)
                (notes)
            }
        }
    };
    Ok(page_with(
        &title,
        me.as_ref(),
        body,
        Some(super::super::assets::GAME_URL),
    )
    .into_response())
}

/// `GET /games/{id}/board?ply=&flip=`: the changing part alone.
pub async fn board_part(
    State(state): State<AppState>,
    MaybeSignedIn(session): MaybeSignedIn,
    Path(id): Path<GameId>,
    Query(q): Query<BoardQuery>,
) -> Result<Response, Plain> {
    let me = me_of(&state, session.as_ref()).await?;
    let viewer = session.as_ref().map(|s| s.player);
    let shown = state.service.games().game_board(viewer, id, q.ply).await?;
    let analysis = latest_analysis(&state, viewer, id).await?;
    let next_game = next_game(&state, viewer, &shown).await?;
    Ok(
        Html(live_part(&shown, me.as_ref(), analysis.as_ref(), q.look(), next_game).into_string())
            .into_response(),
    )
}

/// Where a player waiting for their opponent can go on: another game where it is their move.
/// Looked up only for a player of this game whose move it is not (not for every spectator's
/// redraw).
async fn next_game(
    state: &AppState,
    viewer: Option<PlayerId>,
    shown: &GameBoard,
) -> Result<Option<GameId>, ServiceError> {
    let v = &shown.game;
    let Some(me) = viewer.filter(|_| v.your_side.is_some() && !v.your_turn) else {
        return Ok(None);
    };
    Ok(state
        .service
        .games()
        .list_games(me)
        .await?
        .into_iter()
        .find(|g| g.your_turn && g.id != v.id)
        .map(|g| g.id))
}

#[derive(Debug, Deserialize)]
pub struct MoveForm {
    #[serde(rename = "move")]
    text: String,
    /// The ply the player saw: a move against an older position is refused.
    ply: Option<u32>,
    csrf: Option<String>,
}

/// `POST /games/{id}/move` (from the page's script): the new board, or the reason in words.
pub async fn play_move(
    State(state): State<AppState>,
    session: SignedIn,
    headers: HeaderMap,
    Path(id): Path<GameId>,
    Query(q): Query<BoardQuery>,
    WebForm(form): WebForm<MoveForm>,
) -> Result<Response, Plain> {
    session.check_csrf(&headers, form.csrf.as_deref())?;
    state
        .service
        .games()
        .play(
            session.player,
            id,
            MoveRequest {
                text: form.text,
                expected_ply: form.ply,
                idempotency_key: None,
            },
        )
        .await?;
    let me = me_of(&state, Some(&session)).await?;
    let shown = state
        .service
        .games()
        .game_board(Some(session.player), id, None)
        .await?;
    let analysis = latest_analysis(&state, Some(session.player), id).await?;
    let next_game = next_game(&state, Some(session.player), &shown).await?;
    Ok(
        Html(live_part(&shown, me.as_ref(), analysis.as_ref(), q.look(), next_game).into_string())
            .into_response(),
    )
}

/// What the buttons under a game do.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum GameAction {
    Resign,
    Abort,
    OfferDraw,
    AcceptDraw,
    DeclineDraw,
    Rematch,
}

#[derive(Debug, Deserialize)]
pub struct CsrfForm {
    pub csrf: Option<String>,
}

/// `POST /games/{id}/{action}`: then back to the game.
pub async fn game_action(
    State(state): State<AppState>,
    session: SignedIn,
    headers: HeaderMap,
    Path((id, action)): Path<(GameId, GameAction)>,
    WebForm(form): WebForm<CsrfForm>,
) -> Result<Response, WebError> {
    session.check_csrf(&headers, form.csrf.as_deref())?;
    let s = &state.service;
    let me = session.player;
    let back = format!("/games/{id}");
    let to = match action {
        GameAction::Resign => s.games().resign(me, id).await.map(|_| back)?,
        GameAction::Abort => s.games().abort(me, id).await.map(|_| back)?,
        GameAction::OfferDraw => s.games().offer_draw(me, id).await.map(|_| back)?,
        GameAction::AcceptDraw => s.games().accept_draw(me, id).await.map(|_| back)?,
        GameAction::DeclineDraw => s.games().decline_draw(me, id).await.map(|_| back)?,
        // Against the AI the new game starts at once; against a person, a challenge waits
        // on my games.
        GameAction::Rematch => {
            let created = s.challenges().rematch(me, id).await?;
            created
                .game
                .map_or_else(|| "/".to_owned(), |g| format!("/games/{}", g.id))
        }
    };
    Ok(Redirect::to(&to).into_response())
}

/// A seat's name, linked to the player's page.
pub fn seat(s: &SeatView) -> Markup {
    html! {
        @match (&s.handle, s.ai_level) {
            (Some(handle), _) => a href={ "/players/" (handle.as_str()) } { (s.name) },
            (None, Some(level)) => { "AI level " (level) },
            (None, None) => (s.name),
        }
    }
}

/// A link that opens game `id`, in a cell or item of its own: the players' names are links to
/// their pages, and a link cannot hold another.
pub fn game_link(id: impl std::fmt::Display) -> Markup {
    html! { a.open-game href={ "/games/" (id) } { "Game " (id) } }
}

/// "Ada vs Bob", each a link to the player's page.
pub fn pairing(attackers: &SeatView, defenders: &SeatView) -> Markup {
    html! { (seat(attackers)) " vs " (seat(defenders)) }
}

/// The part of the page that changes: board, status, moves (with their marks once analysed),
/// the evaluation of the ply shown, the buttons of the moment.
fn live_part(
    shown: &GameBoard,
    me: Option<&Me>,
    analysis: Option<&AnalysisView>,
    look: BoardLook,
    next_game: Option<GameId>,
) -> Markup {
    let GameBoard {
        game: v,
        board: snap,
        your_moves: legal,
    } = shown;
    // Plies are judged in order from ply 1.
    let judged = |ply: u32| {
        analysis
            .and_then(|a| a.plies.get(usize::try_from(ply).ok()?.checked_sub(1)?))
            .filter(|p| p.ply == ply)
    };
    let at_end = snap.ply == v.ply;
    let legal_json = serde_json::to_string(legal).unwrap_or_else(|_| "[]".to_owned());
    let playing = v.your_turn && at_end && v.status == GameStatus::Active;
    let over = v.status != GameStatus::Active;
    // What a player who touches a piece when they may not move is told, next to the board.
    let wait = match (v.your_side, v.side_to_move) {
        (Some(_), _) if over => Some("The game is over.".to_owned()),
        (Some(_), Some(side)) if !v.your_turn => Some(format!(
            "Not your turn: the {side} are to move; the board follows their move live."
        )),
        _ => None,
    };
    html! {
        div #live data-ply=(snap.ply) data-last-ply=(v.ply) data-legal=(legal_json) data-playing=(playing)
            data-over=(over) data-wait=[wait] {
            (PreEscaped(board_svg(snap, look)))
            p #board-alt .sr { "Position after " (snap.ply) " moves. " (board_text(&snap.position)) }
            p.status role="status" aria-live="polite" {
                @if !at_end {
                    "Replaying: after move " (snap.ply) " of " (v.ply) ". "
                }
                @if let Some(result) = &v.result {
                    @if at_end { "Game over. " span #result { (result_in_words(result, v.your_side)) "." } }
                } @else if let Some(side) = v.side_to_move {
                    span { (capitalized(side.as_str())) " to move." }
                    @if v.your_turn { " " span.turn { "Your turn!" } }
                    @if let Some(until) = v.vacation_until {
                        " " span #vacation { "On vacation until " (local_time(until))
                            ": the clock stands still." }
                    } @else if let Some(deadline) = v.deadline_at {
                        " Deadline: " (local_time(deadline)) "."
                    }
                }
                @if let Some(w) = &snap.warning { " " strong.turn { (w.kind.shout()) } }
            }
            @if let Some(ply) = judged(snap.ply) { (ply_evaluation(ply)) }
            p { small { "Captured: " (v.captured.attackers) " attackers, " (v.captured.defenders) " defenders." } }
            // The analysis board from the position shown (the service's rule: a finished game,
            // or one's own game against the AI).
            @if over || (v.your_side.is_some() && [&v.attackers, &v.defenders].iter().any(|s| s.ai_level.is_some())) {
                p { a #analyse href={ "/analysis?game=" (v.id) "&ply=" (snap.ply) } { "Analyse this position" } }
            }
            // Conditional moves: a player waiting for a person's move plans their answers.
            @if !over && v.your_side.is_some() && !v.your_turn && [&v.attackers, &v.defenders].iter().all(|s| s.ai_level.is_none()) {
                p { a #plan href={ "/analysis?plan=" (v.id) } { "Plan conditional moves" } }
            }
            @if let (Some(me), true) = (me, v.your_side.is_some() && v.status == GameStatus::Active) {
                div.controls {
                    @match v.draw_offer_by {
                        Some(by) if Some(by) != v.your_side => {
                            strong { "Your opponent offers a draw." }
                            (action_form(me, v.id, "accept-draw", "Accept the draw", Some("Accept the draw? The game ends.")))
                            (action_form(me, v.id, "decline-draw", "Decline", None))
                        },
                        Some(_) => { span { "You offered a draw." } },
                        None => (action_form(me, v.id, "offer-draw", "Offer a draw", Some("Offer your opponent a draw?"))),
                    }
                    (action_form(me, v.id, "resign", "Resign", Some("Resign this game? It cannot be undone.")))
                }
            }
            @if let (Some(me), true, Some(_)) = (me, over, v.your_side) {
                div.controls { (action_form(me, v.id, "rematch", "Rematch", None)) }
            }
            @if let Some(next) = next_game {
                p.next-game { a #next-game href={ "/games/" (next) } { "Next game where it's your move: Game " (next) " →" } }
            }
            // Turns, one line each, numbered as the PNG's caption and the .otg record number
            // them: the first mover's move, then the answer.
            ol.moves aria-label="Moves" {
                @for (turn, pair) in v.moves.chunks(2).enumerate() {
                    li value=(turn + 1) {
                        span.n aria-hidden="true" { (turn + 1) "." }
                        @for m in pair {
                            @let mark = judged(m.ply).and_then(move_mark);
                            @let class = [Some("ply"), (m.ply == snap.ply).then_some("at"), mark.as_ref().map(|m| m.1)]
                                .into_iter().flatten().collect::<Vec<_>>().join(" ");
                            // A link, so that a page without its script steps through the moves too.
                            span class=(class) title=[mark.as_ref().map(|m| &m.2)] {
                                a href={ "?ply=" (m.ply) } data-ply=(m.ply) { (m.notation) }
                                @if let Some((sign, _, words)) = &mark {
                                    span.mark aria-hidden="true" { (sign) }
                                    span.sr { ", " (words) }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

fn action_form(me: &Me, game: GameId, action: &str, label: &str, confirm: Option<&str>) -> Markup {
    html! {
        form.inline method="post" action={ "/games/" (game) "/" (action) } data-confirm=[confirm] {
            (csrf_field(me))
            button type="submit" { (label) }
        }
    }
}

fn capitalized(word: &str) -> String {
    let mut chars = word.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}
