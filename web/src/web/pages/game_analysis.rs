//! A game's computer analysis on its page: the panel (`#analysis`: status and place in the
//! queue, accuracy, the chart, the "Request analysis" button), each move's mark in the move
//! list, and the evaluation of the ply shown. Who may see or ask for an analysis is the games
//! service's rule; this file only draws what it answers.
//! - `GET /games/{id}/analysis`: the panel alone, for the page's script (on `analysis_done`);
//! - `POST /games/{id}/analysis`: asks for one (CSRF form); the panel, or the refusal in words.

use axum::extract::{Path, Query, State};
use axum::http::HeaderMap;
use axum::response::{Html, IntoResponse, Redirect, Response};
use maud::{Markup, html};

use crate::domain::{AnalysisStatus, GameId, PlayerId};
use crate::service::{AnalysisView, Asker, MarkView, Missing, PlyView, ServiceError};
use crate::{AppState, ClientKey};

use super::super::analysis_svg::analysis_chart_svg;
use super::super::board_svg::ThemeChoice;
use super::super::error::{Plain, WebError};
use super::super::form::WebForm;
use super::super::layout::{Me, csrf_field};
use super::super::session::{CSRF_HEADER, MaybeSignedIn, SignedIn};
use super::game::{BoardQuery, CsrfForm};
use super::me_of;

/// The latest analysis of game `id` that `viewer` may see, if any.
pub async fn latest_analysis(
    state: &AppState,
    viewer: Option<PlayerId>,
    id: GameId,
) -> Result<Option<AnalysisView>, WebError> {
    match state.service.analysis().get(viewer, id).await {
        Ok(view) => Ok(Some(view)),
        // None asked for yet, or not for this viewer's eyes (a game still going): no panel.
        // A missing game is not a missing analysis: it is said ("game 7 not found").
        Err(ServiceError::NotFound(Missing::Analysis(_)) | ServiceError::Forbidden(_)) => Ok(None),
        Err(e) => Err(e.into()),
    }
}

/// What the panel shows: the analysis, and whether the viewer may ask for a (new) one.
pub struct AnalysisPanel<'a> {
    pub game: GameId,
    /// Plies of the game now.
    pub game_ply: u32,
    pub analysis: Option<&'a AnalysisView>,
    /// Signed in and allowed by the service's rule.
    pub requester: Option<&'a Me>,
    pub look: ThemeChoice,
}

/// The panel of `game` for `viewer`, from the service's answers.
pub async fn panel_for(
    state: &AppState,
    me: Option<&Me>,
    game: GameId,
    game_ply: u32,
    analysis: Option<&AnalysisView>,
    look: ThemeChoice,
) -> Result<Markup, WebError> {
    let may_request = match me {
        Some(me) => {
            state
                .service
                .analysis()
                .may_request(me.player.id, game)
                .await?
        }
        None => false,
    };
    Ok(panel(&AnalysisPanel {
        game,
        game_ply,
        analysis,
        requester: me.filter(|_| may_request),
        look,
    }))
}

/// `#analysis`: always on the page (empty when there is nothing to show), so the script can
/// swap it when the analysis is done.
pub fn panel(p: &AnalysisPanel) -> Markup {
    let status = p.analysis.map(|a| a.status);
    // A new request is worth offering when there is none, or the game went on since.
    let offer = p.requester.filter(|_| match p.analysis {
        None => true,
        Some(a) => a.status == AnalysisStatus::Done && a.plies_analysed < p.game_ply,
    });
    html! {
        section #analysis aria-labelledby="analysis-title" data-status=[status] {
            @if p.analysis.is_some() || offer.is_some() {
                h2 #analysis-title { "Computer analysis" }
            }
            @if let Some(a) = p.analysis {
                @match a.status {
                    AnalysisStatus::Done => {
                        @if let Some(s) = &a.summary {
                            p {
                                "Accuracy: attackers " (format!("{:.0}", s.attackers.accuracy)) "%, defenders "
                                (format!("{:.0}", s.defenders.accuracy)) "%."
                            }
                        }
                        (analysis_chart_svg(&a.plies, p.look))
                        p { small {
                            (a.plies_analysed) " plies, " (a.ms_per_ply) " ms of search a position. "
                            "Click the chart or a move to see it; marks: ?! inaccuracy, ? mistake, ?? blunder, ✗ missed win."
                        } }
                    },
                    AnalysisStatus::Queued | AnalysisStatus::Running => {
                        p.notice role="status" {
                            @if a.status == AnalysisStatus::Running { "The analysis is running" }
                            @else { "The analysis is waiting" }
                            @if let Some(n) = a.queue_position { " (number " (n) " in the queue)" }
                            ". The chart appears here when it is done."
                        }
                    },
                }
            }
            @if let Some(me) = offer {
                form #analysis-form method="post" action={ "/games/" (p.game) "/analysis" } {
                    (csrf_field(me))
                    button type="submit" {
                        @if p.analysis.is_some() { "Analyse again, with the new moves" }
                        @else { "Request analysis" }
                    }
                }
            }
            p #analysis-error .error role="alert" {}
        }
    }
}

/// The mark of a move as the move list shows it: a sign, a class for its colour, and words.
pub fn move_mark(ply: &PlyView) -> Option<(&'static str, &'static str, String)> {
    let (sign, class) = match ply.mark {
        MarkView::Best | MarkView::Good => return None,
        MarkView::Inaccuracy => ("?!", "m-inaccuracy"),
        MarkView::Mistake => ("?", "m-mistake"),
        MarkView::Blunder => ("??", "m-blunder"),
        MarkView::MissedWin => ("✗", "m-missed-win"),
    };
    Some((sign, class, mark_sentence(ply)))
}

/// A mark in words.
pub fn mark_words(mark: MarkView) -> &'static str {
    match mark {
        MarkView::Best => "best move",
        MarkView::Good => "good move",
        MarkView::Inaccuracy => "inaccuracy",
        MarkView::Mistake => "mistake",
        MarkView::Blunder => "blunder",
        MarkView::MissedWin => "missed win",
    }
}

/// "mistake: better was e4-e7, defenders' chance 62% → 31%".
fn mark_sentence(ply: &PlyView) -> String {
    let better = match (&ply.best, &ply.forced) {
        (Some(best), Some(forced)) => format!(": better was {best} ({forced})"),
        (Some(best), None) if *best != ply.mv => format!(": better was {best}"),
        _ => String::new(),
    };
    format!(
        "{}{better}, defenders' chance {:.0}% → {:.0}%",
        mark_words(ply.mark),
        ply.before,
        ply.after
    )
}

/// The evaluation of the ply shown (under the board, while stepping through the moves).
pub fn ply_evaluation(ply: &PlyView) -> Markup {
    html! {
        p #ply-eval .eval {
            "Move " (ply.ply) ", " (ply.mv) " (" (ply.side) "): "
            span class=[move_mark(ply).map(|m| m.1)] { (mark_words(ply.mark)) }
            ". Defenders' chance " (format!("{:.0}", ply.before)) "% → " (format!("{:.0}", ply.after)) "%."
            @if let Some(best) = ply.best.as_ref().filter(|b| **b != ply.mv) {
                " Best: " strong { (best) }
                @if ply.line.len() > 1 {
                    " (line " (ply.line.iter().take(8).cloned().collect::<Vec<_>>().join(" ")) ")"
                }
                "."
            }
            @if let Some(forced) = &ply.forced { " The search proved " (forced) " before this move." }
        }
    }
}

/// `GET /games/{id}/analysis`: the panel alone.
pub async fn analysis_part(
    State(state): State<AppState>,
    MaybeSignedIn(session): MaybeSignedIn,
    Path(id): Path<GameId>,
    Query(q): Query<BoardQuery>,
) -> Result<Response, Plain> {
    let me = me_of(&state, session.as_ref()).await?;
    let viewer = session.as_ref().map(|s| s.player);
    state.service.games().ensure_visible(viewer, id).await?;
    let game = state.service.games().game(viewer, id).await?;
    let analysis = latest_analysis(&state, viewer, id).await?;
    let panel = panel_for(
        &state,
        me.as_ref(),
        id,
        game.ply,
        analysis.as_ref(),
        q.look().theme,
    )
    .await?;
    Ok(Html(panel.into_string()).into_response())
}

/// `POST /games/{id}/analysis`: asks the service for the analysis. The page's script (which
/// sends the CSRF token in a header) gets the new panel or the refusal as a line of text; a
/// plain form (no script) goes back to the game, or gets a page saying what went wrong, as the
/// other buttons do.
pub async fn request_analysis(
    State(state): State<AppState>,
    session: SignedIn,
    client: ClientKey,
    headers: HeaderMap,
    Path(id): Path<GameId>,
    Query(q): Query<BoardQuery>,
    WebForm(form): WebForm<CsrfForm>,
) -> Response {
    if headers.contains_key(CSRF_HEADER) {
        let asker = asker_of(&session, &client);
        return match panel_after_request(&state, &session, asker, &headers, id, q.look().theme)
            .await
        {
            Ok(panel) => Html(panel.into_string()).into_response(),
            Err(e) => Plain(e).into_response(),
        };
    }
    let asked = match session.check_csrf(&headers, form.csrf.as_deref()) {
        Ok(()) => state
            .service
            .analysis()
            .request(asker_of(&session, &client), id)
            .await
            .map_err(WebError::from),
        Err(e) => Err(e),
    };
    match asked {
        Ok(_) => Redirect::to(&format!("/games/{id}")).into_response(),
        Err(e) => e.into_response(),
    }
}

/// Who asks: the signed-in player, from the request's client address (the analysis queue's
/// shares are counted per address too).
fn asker_of(session: &SignedIn, client: &ClientKey) -> Asker {
    Asker {
        player: session.player,
        from: client.network(),
    }
}

/// Asks for the analysis for the page's script; the panel that shows it.
async fn panel_after_request(
    state: &AppState,
    session: &SignedIn,
    asker: Asker,
    headers: &HeaderMap,
    id: GameId,
    look: ThemeChoice,
) -> Result<Markup, WebError> {
    session.check_csrf(headers, None)?;
    let analysis = state.service.analysis().request(asker, id).await?;
    let me = me_of(state, Some(session)).await?;
    let game = state.service.games().game(Some(session.player), id).await?;
    panel_for(state, me.as_ref(), id, game.ply, Some(&analysis), look).await
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::Side;

    fn judged(mark: MarkView, best: Option<&str>, forced: Option<&str>) -> PlyView {
        PlyView {
            ply: 7,
            side: Side::Defenders,
            mv: "d4-d6".into(),
            mark,
            before: 62.0,
            after: 31.4,
            loss: 30.6,
            best: best.map(str::to_owned),
            line: vec![],
            forced: forced.map(str::to_owned),
        }
    }

    #[test]
    fn a_mark_reads_with_the_better_move_and_the_chances() {
        let (sign, class, words) =
            move_mark(&judged(MarkView::Mistake, Some("e4-e7"), None)).unwrap();
        assert_eq!((sign, class), ("?", "m-mistake"));
        assert_eq!(
            words,
            "mistake: better was e4-e7, defenders' chance 62% → 31%"
        );
        let (sign, _, words) = move_mark(&judged(
            MarkView::MissedWin,
            Some("a3-a1"),
            Some("escape in 1"),
        ))
        .unwrap();
        assert_eq!(sign, "✗");
        assert!(
            words.starts_with("missed win: better was a3-a1 (escape in 1), "),
            "{words}"
        );
        assert_eq!(
            move_mark(&judged(MarkView::Good, Some("e4-e7"), None)),
            None
        );
        assert_eq!(
            move_mark(&judged(MarkView::Best, Some("d4-d6"), None)),
            None
        );
    }
}
