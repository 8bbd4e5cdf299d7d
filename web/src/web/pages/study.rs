//! Study on the web: the import form (paste a record or pick a file; a refusal shown in place,
//! the text kept) and a game's notes (comments and variations) with the form its players add
//! them by.

use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use maud::{Markup, html};
use serde::Deserialize;

use crate::AppState;
use crate::domain::GameId;
use crate::service::ServiceError;
use crate::service::study::{
    AnnotateRequest, AnnotationView, AnnotatorRole, ImportRequest, RecordFormat, VariationMove,
};

use super::super::error::WebError;
use super::super::form::WebForm;
use super::super::layout::{Me, csrf_field, page_with};
use super::super::session::SignedIn;
use super::me_of;

/// The script that reads a picked file into the record's box.
pub const IMPORT_SCRIPT: &str = "/assets/import.js";

/// `GET /games/import`.
pub async fn import_page(
    State(state): State<AppState>,
    session: SignedIn,
) -> Result<Response, WebError> {
    let Some(me) = me_of(&state, Some(&session)).await? else {
        return Err(WebError::SignInNeeded);
    };
    Ok(import_form(&state, &me, &ImportForm::default(), None).into_response())
}

#[derive(Debug, Default, Deserialize)]
pub struct ImportForm {
    csrf: Option<String>,
    #[serde(default)]
    record: String,
    #[serde(default)]
    variant: String,
}

/// `POST /games/import`: to the new game, or the form again with the refusal in words.
pub async fn import_record(
    State(state): State<AppState>,
    session: SignedIn,
    headers: HeaderMap,
    WebForm(form): WebForm<ImportForm>,
) -> Result<Response, WebError> {
    session.check_csrf(&headers, form.csrf.as_deref())?;
    let Some(me) = me_of(&state, Some(&session)).await? else {
        return Err(WebError::SignInNeeded);
    };
    let request = ImportRequest {
        text: form.record.clone(),
        format: None,
        variant: Some(form.variant.clone()).filter(|v| !v.is_empty()),
    };
    match import_text(&state, session.player, request).await {
        Ok(game) => Ok(Redirect::to(&format!("/games/{game}")).into_response()),
        Err(
            e @ (ServiceError::IllegalMove(_)
            | ServiceError::Invalid(_)
            | ServiceError::NotFound(_)),
        ) => {
            let message = e.to_string();
            Ok((
                StatusCode::UNPROCESSABLE_ENTITY,
                import_form(&state, &me, &form, Some(&message)),
            )
                .into_response())
        }
        Err(e) => Err(e.into()),
    }
}

async fn import_text(
    state: &AppState,
    who: crate::domain::PlayerId,
    request: ImportRequest,
) -> Result<GameId, ServiceError> {
    if request.text.trim().is_empty() {
        return Err(ServiceError::Invalid(
            "paste a game record, or pick a file".into(),
        ));
    }
    Ok(state
        .service
        .study()
        .import(Some(who), request)
        .await?
        .game_id)
}

fn import_form(
    state: &AppState,
    me: &Me,
    form: &ImportForm,
    refusal: Option<&str>,
) -> axum::response::Html<String> {
    let variants = state.service.games().variants();
    let body = html! {
        h1 { "Import a game" }
        p { "An OpenTafl " code { ".otg" } " record (its comments and variations come along), or a move list as the tafl archives write it ("
            code { "1. d1-d3 e5-e7 2. ..." } ", a result such as " code { "1-0" } " at the end) with its variant. "
            "Every move is checked; the game is kept finished, unrated and public, its players by the names the record gives." }
        form.stack #import-form method="post" action="/games/import" {
            (csrf_field(me))
            @if let Some(message) = refusal {
                p #import-error .error role="alert" { (message) }
            }
            label { "A file " input #record-file type="file" accept=".otg,.txt,text/plain"; }
            label { "The record"
                textarea #record name="record" rows="14" cols="70" spellcheck="false"
                    aria-describedby=[refusal.map(|_| "import-error")] { (form.record) }
            }
            label { "Variant of a move list (an .otg names its own rules)"
                select name="variant" {
                    option value="" { "(from the record)" }
                    @for v in &variants {
                        option value=(v.id) selected[v.id == form.variant] { (v.name) }
                    }
                }
            }
            button.primary type="submit" { "Import" }
        }
    };
    page_with("Import a game", Some(me), body, Some(IMPORT_SCRIPT))
}

/// The notes of game `id` for its page: what the record or the players said, and, for those
/// who may, the form to add one.
pub async fn notes_section(
    state: &AppState,
    me: Option<&Me>,
    id: GameId,
) -> Result<Markup, WebError> {
    let viewer = me.map(|m| m.player.id);
    let notes = state.service.study().annotations(viewer, id).await?;
    let imported = state.service.study().imported_from(id).await?;
    let may_write = match viewer {
        Some(who) => state.service.study().may_annotate(who, id).await.is_ok(),
        None => false,
    };
    if notes.is_empty() && imported.is_none() && !may_write {
        return Ok(html! {});
    }
    Ok(html! {
        section #notes aria-label="Notes" {
            h2 { "Notes" }
            @if let Some(from) = &imported {
                p { small { "Imported from " (match from.format { RecordFormat::Otg => "an OpenTafl record", RecordFormat::Moves => "a move list" })
                    @for (k, v) in from.tags.iter().filter(|(k, _)| ["event", "site", "date"].contains(&k.as_str())) {
                        " · " (k) ": " (v)
                    }
                } }
            }
            @if notes.is_empty() {
                p { "No comments or variations yet." }
            } @else {
                ol.notes {
                    @for note in &notes { li { (note_item(note)) } }
                }
            }
            @if may_write && let Some(me) = me {
                form.stack #annotate-form method="post" action={ "/games/" (id) "/annotate" } {
                    (csrf_field(me))
                    label { "Move number " input type="number" name="ply" min="1" required; }
                    label { "Comment" textarea name="comment" rows="3" cols="60" {} }
                    label { "A variation instead of that move (optional), e.g. " code { "d1-d3 e5-e7" }
                        input name="variation" autocomplete="off";
                    }
                    button type="submit" { "Add note" }
                }
            }
        }
    })
}

pub(super) fn note_item(note: &AnnotationView) -> Markup {
    let by = match (&note.author, note.role) {
        (_, AnnotatorRole::Record) => "the record".to_owned(),
        (Some(name), _) => name.clone(),
        (None, _) => "someone".to_owned(),
    };
    html! {
        strong { "Move " (note.ply) } " · " small { (by) } ": "
        @if let Some(comment) = &note.comment { span.comment { (comment) } }
        @if let Some(line) = &note.variation { (variation(line)) }
    }
}

fn variation(line: &[VariationMove]) -> Markup {
    html! {
        span.variation { "instead: "
            @for m in line {
                code { (m.mv) } " "
                @if let Some(comment) = &m.comment { "(" (comment) ") " }
                @for inner in &m.variations { "[" (variation(inner)) "] " }
            }
        }
    }
}

#[derive(Debug, Deserialize)]
pub struct AnnotateForm {
    csrf: Option<String>,
    ply: u32,
    #[serde(default)]
    comment: String,
    #[serde(default)]
    variation: String,
}

/// `POST /games/{id}/annotate`: back to the game's notes.
pub async fn annotate(
    State(state): State<AppState>,
    session: SignedIn,
    headers: HeaderMap,
    Path(id): Path<GameId>,
    WebForm(form): WebForm<AnnotateForm>,
) -> Result<Response, WebError> {
    session.check_csrf(&headers, form.csrf.as_deref())?;
    let moves: Vec<String> = form
        .variation
        .split([' ', ',', '\n'])
        .filter(|m| !m.trim().is_empty())
        .map(str::to_owned)
        .collect();
    let request = AnnotateRequest {
        ply: form.ply,
        comment: Some(form.comment).filter(|c| !c.trim().is_empty()),
        variation: (!moves.is_empty()).then_some(moves),
    };
    state
        .service
        .study()
        .annotate(session.player, id, request)
        .await?;
    Ok(Redirect::to(&format!("/games/{id}#notes")).into_response())
}
