//! `/tournaments`: the tournaments open for sign-up, running and finished, and (signed in) the
//! form that creates one. A refusal (a name too long, a start in the past, ...) comes back on
//! the form, in place and in words, with what was typed kept.

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use maud::{Markup, html};
use serde::Deserialize;

use crate::AppState;
use crate::domain::TournamentStatus;
use crate::service::tournaments::{
    Format, FormatKind, MAX_PLAYERS, MAX_ROUND_DAYS, NewTournament, WithdrawalRule, utc_minute_ms,
};
use crate::service::{
    ClockSpec, DEFAULT_VARIANT, RulesChoice, Shrink, TournamentVacation, VariantView, variant_label,
};

use super::super::error::WebError;
use super::super::form::WebForm;
use super::super::layout::{Me, csrf_field, local_time, page};
use super::super::session::{MaybeSignedIn, SignedIn};
use super::me_of;
use super::tournament_words::{format_words, status_words};
use super::variants::variant_title;

/// What the create form holds: as typed, so a refusal shows it again.
#[derive(Debug, Clone, Deserialize)]
pub struct NewTournamentForm {
    csrf: Option<String>,
    #[serde(default)]
    name: String,
    #[serde(default = "default_format")]
    format: FormatKind,
    #[serde(default)]
    rounds: String,
    #[serde(default)]
    group_size: String,
    #[serde(default)]
    variant: String,
    #[serde(default)]
    days: String,
    /// A bank clock instead of days per move: the buffer in days (empty: days per move).
    #[serde(default)]
    bank_days: String,
    /// The bank's increment after each move, in hours.
    #[serde(default)]
    increment_hours: String,
    /// The increment shrinks every this many moves of a side (empty: never) ...
    #[serde(default)]
    shrink_after_moves: String,
    /// ... by this percent of itself ...
    #[serde(default)]
    shrink_percent: String,
    /// ... never below this many hours.
    #[serde(default)]
    minimum_increment_hours: String,
    rated: Option<bool>,
    #[serde(default)]
    min_players: String,
    #[serde(default)]
    max_players: String,
    /// `YYYY-MM-DDTHH:MM` in UTC (a `datetime-local` field); empty: the organiser starts it.
    #[serde(default)]
    starts_at: String,
    /// Days of vacation a player may use in its games: empty allowed, 0 forbidden.
    #[serde(default)]
    vacation_days: String,
    /// Days between round starts: empty, each round as soon as the one before ends.
    #[serde(default)]
    round_days: String,
    /// What a withdrawal does to the player's games.
    #[serde(default)]
    withdrawal: WithdrawalRule,
}

fn default_format() -> FormatKind {
    FormatKind::RoundRobin
}

impl Default for NewTournamentForm {
    fn default() -> Self {
        NewTournamentForm {
            csrf: None,
            name: String::new(),
            format: default_format(),
            rounds: String::new(),
            group_size: "4".into(),
            variant: DEFAULT_VARIANT.to_owned(),
            days: "3".into(),
            bank_days: String::new(),
            increment_hours: String::new(),
            shrink_after_moves: String::new(),
            shrink_percent: String::new(),
            minimum_increment_hours: String::new(),
            rated: Some(true),
            min_players: "2".into(),
            max_players: "16".into(),
            starts_at: String::new(),
            vacation_days: String::new(),
            round_days: String::new(),
            withdrawal: WithdrawalRule::default(),
        }
    }
}

/// `GET /tournaments`.
pub async fn tournament_list(
    State(state): State<AppState>,
    MaybeSignedIn(session): MaybeSignedIn,
) -> Result<Response, WebError> {
    let me = me_of(&state, session.as_ref()).await?;
    list_page(&state, me.as_ref(), &NewTournamentForm::default(), None).await
}

/// `POST /tournaments`: to the new tournament's page, or the form again with the refusal.
pub async fn create_tournament(
    State(state): State<AppState>,
    session: SignedIn,
    headers: HeaderMap,
    WebForm(form): WebForm<NewTournamentForm>,
) -> Result<Response, WebError> {
    session.check_csrf(&headers, form.csrf.as_deref())?;
    let now = state.service.now_ms();
    let created = match form.request(now) {
        Ok(request) => {
            state
                .service
                .tournaments()
                .create(session.player, request)
                .await
        }
        Err(refusal) => Err(refusal),
    };
    match created {
        Ok(t) => Ok(Redirect::to(&format!("/tournaments/{}", t.id)).into_response()),
        Err(e) if e.is_failure() => Err(WebError::Service(e)),
        Err(refusal) => {
            let me = me_of(&state, Some(&session)).await?;
            let mut page =
                list_page(&state, me.as_ref(), &form, Some(&refusal.to_string())).await?;
            *page.status_mut() = StatusCode::UNPROCESSABLE_ENTITY;
            Ok(page)
        }
    }
}

impl NewTournamentForm {
    /// The service's request, or the first thing wrong with the form in the player's terms.
    fn request(&self, now_ms: i64) -> Result<NewTournament, crate::service::ServiceError> {
        use crate::service::ServiceError::Invalid;
        let number = whole_number;
        let format = match self.format {
            FormatKind::RoundRobin => Format::RoundRobin,
            FormatKind::DoubleRoundRobin => Format::DoubleRoundRobin,
            FormatKind::Swiss => Format::Swiss {
                rounds: number("the number of rounds", &self.rounds)?,
            },
            FormatKind::GroupsKnockout => Format::GroupsKnockout {
                group_size: number("the group size", &self.group_size)?,
            },
        };
        let clock = self.clock()?;
        let starts_at = match self.starts_at.trim() {
            "" => None,
            text => {
                let at = utc_minute_ms(text).ok_or_else(|| {
                    Invalid(format!(
                        "the start is a date and time (UTC) such as 2026-12-01T18:00, not {text:?}"
                    ))
                })?;
                if at <= now_ms {
                    return Err(Invalid(format!(
                        "the start ({text} UTC) has passed; choose a time to come or leave it \
                         empty to start the tournament yourself"
                    )));
                }
                Some(at)
            }
        };
        Ok(NewTournament {
            name: self.name.clone(),
            format,
            rules: RulesChoice::Variant(self.variant.clone()),
            clock,
            // An unticked box is not sent: casual.
            rated: Some(self.rated.unwrap_or(false)),
            min_players: number("the fewest players", &self.min_players)?,
            max_players: number("the most players", &self.max_players)?,
            starts_at,
            vacation: match self.vacation_days.trim() {
                "" => TournamentVacation::Allowed,
                _ => match number("the vacation days", &self.vacation_days)? {
                    0 => TournamentVacation::Forbidden,
                    days => TournamentVacation::MaxDays(days),
                },
            },
            round_days: match self.round_days.trim() {
                "" => None,
                _ => Some(number("the days between rounds", &self.round_days)?),
            },
            withdrawal: self.withdrawal,
        })
    }

    /// The clock: a bank when its days are given (with its increment, which may shrink), else
    /// days per move (0: none); refused in the form's own words.
    fn clock(&self) -> Result<ClockSpec, crate::service::ServiceError> {
        use crate::service::ServiceError::Invalid;
        const HOUR: u64 = 3_600;
        let number = whole_number;
        let optional = |field: &str, text: &str| match text.trim() {
            "" => Ok(None),
            _ => whole_number(field, text).map(Some),
        };
        let Some(bank_days) = optional("the bank (days)", &self.bank_days)? else {
            return Ok(match number("the clock (days per move)", &self.days)? {
                0 => ClockSpec::Unlimited {},
                days => ClockSpec::days_per_move(days),
            });
        };
        let increment_hours =
            optional("the increment (hours)", &self.increment_hours)?.unwrap_or(0);
        let bank = ClockSpec::bank(
            u64::from(bank_days) * 86_400,
            u64::from(increment_hours) * HOUR,
        );
        let shrink = (
            optional("the moves between shrinks", &self.shrink_after_moves)?,
            optional("the shrink (percent)", &self.shrink_percent)?,
            optional(
                "the smallest increment (hours)",
                &self.minimum_increment_hours,
            )?,
        );
        let clock = match shrink {
            (None, None, None) => bank,
            (Some(after_moves), Some(percent), Some(minimum_hours)) => {
                if minimum_hours > increment_hours {
                    return Err(Invalid(format!(
                        "the smallest increment ({minimum_hours} hours) is more than the \
                         increment ({increment_hours} hours)"
                    )));
                }
                bank.shrinking(Shrink {
                    after_moves,
                    percent,
                    minimum_seconds: u64::from(minimum_hours) * HOUR,
                })
            }
            _ => {
                return Err(Invalid(
                    "a shrinking increment needs all three: every how many moves, by what \
                     percent, and the smallest increment; or leave all three empty"
                        .into(),
                ));
            }
        };
        clock.validate()
    }
}

/// A form's number field, refused in the form's words when it is not a whole number.
fn whole_number(field: &str, text: &str) -> Result<u32, crate::service::ServiceError> {
    text.trim().parse::<u32>().map_err(|_| {
        crate::service::ServiceError::Invalid(format!(
            "{field} is a whole number, not {:?}",
            text.trim()
        ))
    })
}

async fn list_page(
    state: &AppState,
    me: Option<&Me>,
    form: &NewTournamentForm,
    refusal: Option<&str>,
) -> Result<Response, WebError> {
    let all = state.service.tournaments().list().await?;
    let variants = state.service.games().variants();
    let with = |wanted: &[TournamentStatus]| {
        all.iter()
            .filter(|t| wanted.contains(&t.status))
            .collect::<Vec<_>>()
    };
    let body = html! {
        h1 { "Tournaments" }
        p { "Round robins, Swiss tournaments and groups then knockout on correspondence clocks, joined from the web, \
             from Discord (" code { "/tournament join" } ") and over HTTP." }
        h2 { "Open for sign-up" }
        (table(&with(&[TournamentStatus::SignUp]), "open"))
        h2 { "Running" }
        (table(&with(&[TournamentStatus::Running]), "running"))
        h2 { "Finished" }
        (table(&with(&[TournamentStatus::Finished, TournamentStatus::Cancelled]), "finished"))
        @if let Some(me) = me {
            (create_form(me, &variants, form, refusal))
        } @else {
            p { a href="/" { "Sign in" } " to create a tournament or join one." }
        }
    };
    Ok(page("Tournaments", me, body).into_response())
}

fn table(tournaments: &[&crate::service::tournaments::TournamentSummary], list: &str) -> Markup {
    html! {
        @if tournaments.is_empty() {
            p { "None." }
        } @else {
            table.tournaments data-list=(list) {
                thead { tr { th { "Tournament" } th { "Format" } th { "Variant" } th { "State" } } }
                tbody {
                    @for t in tournaments {
                        tr data-tournament=(t.id) {
                            td { a href={ "/tournaments/" (t.id) } { (t.name) } }
                            td { (format_words(t.format)) }
                            td { (variant_label(t.variant.as_deref())) }
                            td {
                                (status_words(t.status, t.round))
                                @if let (TournamentStatus::SignUp, Some(at)) = (t.status, t.starts_at) {
                                    ", starts " (local_time(at))
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

fn create_form(
    me: &Me,
    variants: &[VariantView],
    form: &NewTournamentForm,
    refusal: Option<&str>,
) -> Markup {
    let formats = [
        (
            FormatKind::RoundRobin,
            "Round robin (everyone meets everyone once)",
        ),
        (
            FormatKind::DoubleRoundRobin,
            "Double round robin (twice, once with each side)",
        ),
        (
            FormatKind::Swiss,
            "Swiss (paired by score, a set number of rounds)",
        ),
        (
            FormatKind::GroupsKnockout,
            "Groups then knockout (groups by rating, group winners go on)",
        ),
    ];
    html! {
        h2 #create { "Create a tournament" }
        form.stack #tournament-form method="post" action="/tournaments" {
            (csrf_field(me))
            p.error #tournament-error role="alert" { @if let Some(r) = refusal { (r) } }
            label { "Name"
                input name="name" required maxlength="80" value=(form.name) autocomplete="off";
            }
            label { "Format"
                select name="format" {
                    @for (kind, words) in formats {
                        option value=(kind_value(kind)) selected[form.format == kind] { (words) }
                    }
                }
            }
            label { "Rounds (Swiss only)"
                input type="number" name="rounds" min="1" max=(MAX_PLAYERS) value=(form.rounds);
            }
            label { "Largest group (groups then knockout only)"
                input type="number" name="group_size" min="2" max=(MAX_PLAYERS) value=(form.group_size);
            }
            label { "Variant"
                select name="variant" {
                    @for v in variants {
                        option value=(v.id) selected[v.id == form.variant] { (variant_title(v)) }
                    }
                }
            }
            label { "Clock: days per move (0: none)"
                input type="number" name="days" min="0" max="366" value=(form.days);
            }
            fieldset #bank-clock {
                legend { "Or a time bank (its days replace days per move)" }
                label { "Bank: days"
                    input type="number" name="bank_days" min="1" max="366" value=(form.bank_days);
                }
                label { "Added after each move: hours"
                    input type="number" name="increment_hours" min="0" max="8784" value=(form.increment_hours);
                }
                label { "The increment shrinks every … moves of a player (empty: never)"
                    input type="number" name="shrink_after_moves" min="1" value=(form.shrink_after_moves);
                }
                label { "… by percent"
                    input type="number" name="shrink_percent" min="1" max="99" value=(form.shrink_percent);
                }
                label { "… never below: hours"
                    input type="number" name="minimum_increment_hours" min="0" max="8784" value=(form.minimum_increment_hours);
                }
            }
            label.check { input type="checkbox" name="rated" value="true" checked[form.rated == Some(true)]; " Rated (with a clock)" }
            label { "Fewest players"
                input type="number" name="min_players" min="2" max=(MAX_PLAYERS) value=(form.min_players);
            }
            label { "Most players"
                input type="number" name="max_players" min="2" max=(MAX_PLAYERS) value=(form.max_players);
            }
            label { "Starts by itself at (UTC; empty: I start it)"
                input type="datetime-local" name="starts_at" value=(form.starts_at);
            }
            label { "Vacation days per player in its games (empty: no limit; 0: none)"
                input type="number" name="vacation_days" min="0" max="366" value=(form.vacation_days);
            }
            label { "Days between round starts (empty: each round as soon as the one before ends)"
                input type="number" name="round_days" min="1" max=(MAX_ROUND_DAYS) value=(form.round_days);
            }
            label { "When a player withdraws"
                select name="withdrawal" {
                    @for (rule, words) in WITHDRAWAL_CHOICES {
                        option value=(rule.to_string()) selected[form.withdrawal == rule] { (words) }
                    }
                }
            }
            button.primary type="submit" { "Create" }
        }
    }
}

/// The withdrawal rules as the form offers them (annulling is for round robins and the group
/// stage: a Swiss tournament is refused it, in words).
const WITHDRAWAL_CHOICES: [(WithdrawalRule, &str); 3] = [
    (
        WithdrawalRule::Forfeit,
        "Forfeit the games left (results played stand)",
    ),
    (
        WithdrawalRule::Annul,
        "Annul all their games (round robins and groups)",
    ),
    (
        WithdrawalRule::AnnulUnderHalf,
        "Annul them if under half were played, else forfeit (FIDE)",
    ),
];

fn kind_value(kind: FormatKind) -> &'static str {
    match kind {
        FormatKind::RoundRobin => "round_robin",
        FormatKind::DoubleRoundRobin => "double_round_robin",
        FormatKind::Swiss => "swiss",
        FormatKind::GroupsKnockout => "groups_knockout",
    }
}
