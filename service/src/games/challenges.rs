//! Challenges: to a player, open to anyone, or to the AI; accept, decline, cancel, expiry.

use tafl_engine::{Rules, Side};

use crate::domain::{ChallengeId, ChallengeStatus, GameId, GameStatus, PlayerId, Seat, SideChoice};
use crate::store::Conn;
use crate::store::rows::{self, ChallengeRow, GameRow};

use super::Challenges;
use crate::cooldowns::Asked;
use crate::events::{ChallengeAnswer, EventPayload, GameStarted};
use crate::games::game_state::{self, parse_rules};
use crate::ratings::ai_players::{level_may_be_rated, refuse_ai_player};
use crate::views::{ChallengeCreated, ChallengeLists, ChallengeView, GameView};
use crate::{
    ClockSpec, Emitter, Missing, NewChallenge, Opponent, Result, RulesChoice, ServiceError,
};

/// The rules of a challenge: (variant id, rules string), refused when their start cannot be
/// played (judged like any ply, so no game is made that is over or stuck before it begins).
pub(crate) fn resolve_rules(choice: &RulesChoice) -> Result<(Option<String>, String, Rules)> {
    let resolved = named_or_custom_rules(choice)?;
    resolved
        .2
        .check_start()
        .map_err(|e| ServiceError::Invalid(format!("these rules cannot start a game: {e}")))?;
    Ok(resolved)
}

fn named_or_custom_rules(choice: &RulesChoice) -> Result<(Option<String>, String, Rules)> {
    match choice {
        RulesChoice::Variant(id) => {
            let v = tafl_engine::variant(id).ok_or_else(|| {
                ServiceError::Invalid(format!(
                    "unknown variant {id:?}; known: {}",
                    tafl_engine::variants()
                        .iter()
                        .map(|v| v.id)
                        .collect::<Vec<_>>()
                        .join(", ")
                ))
            })?;
            let rules = v.rules();
            Ok((Some(v.id.to_owned()), rules.to_opentafl(), rules))
        }
        RulesChoice::Rules(text) => {
            let rules = parse_rules(text)?;
            Ok((None, rules.to_opentafl(), rules))
        }
    }
}

fn random_bit() -> Result<bool> {
    let mut b = [0u8; 1];
    getrandom::fill(&mut b)
        .map_err(|e| ServiceError::internal(format!("no randomness for the sides: {e}")))?;
    Ok(b[0] & 1 == 1)
}

/// The challenger's side once `random` is decided.
fn decide_side(choice: SideChoice) -> Result<Side> {
    Ok(match choice {
        SideChoice::Attackers => Side::Attackers,
        SideChoice::Defenders => Side::Defenders,
        SideChoice::Random if random_bit()? => Side::Attackers,
        SideChoice::Random => Side::Defenders,
    })
}

/// The clock a challenge was made with; an unreadable one is an error, never "unlimited".
fn stored_clock(ch: &ChallengeRow) -> Result<ClockSpec> {
    serde_json::from_str(&ch.clock).map_err(|e| {
        ServiceError::internal(format!("challenge {}: stored clock unreadable: {e}", ch.id))
    })
}

pub(crate) fn challenge_view(c: &Conn<'_>, ch: &ChallengeRow) -> Result<ChallengeView> {
    let opponent = match (ch.opponent, ch.opponent_ai_level) {
        (Some(p), _) => Some(game_state::seat_view(c, Seat::Player(p))?),
        (None, Some(level)) => Some(game_state::seat_view(c, Seat::Ai(level))?),
        (None, None) => None,
    };
    Ok(ChallengeView {
        id: ch.id,
        challenger: game_state::seat_view(c, Seat::Player(ch.challenger))?,
        opponent,
        variant: ch.variant.clone(),
        rules: ch.rules.clone(),
        challenger_side: ch.challenger_side,
        clock: stored_clock(ch)?,
        status: ch.status,
        game_id: ch.game_id,
        context: ch.context.clone(),
        created_at: ch.created_at,
        expires_at: ch.expires_at,
        rated: ch.rated,
        private: ch.private,
    })
}

/// Creates the game of an accepted challenge; returns its row.
fn start_game(c: &Conn<'_>, e: &mut Emitter, ch: &ChallengeRow, opponent: Seat) -> Result<GameRow> {
    let challenger_side = decide_side(ch.challenger_side)?;
    let (attackers, defenders) = match challenger_side {
        Side::Attackers => (Seat::Player(ch.challenger), opponent),
        Side::Defenders => (opponent, Seat::Player(ch.challenger)),
    };
    let row = open_game(
        c,
        e,
        NewGame {
            variant: ch.variant.clone(),
            rules: &ch.rules,
            attackers,
            defenders,
            clock: stored_clock(ch)?,
            context: ch.context.clone(),
            rated: ch.rated,
            private: ch.private,
        },
        Some(ch.id),
    )?;
    rows::resolve_challenge(c, ch.id, ChallengeStatus::Accepted, Some(row.id), e.now())?;
    Ok(row)
}

/// A game about to start: who plays which side, on what rules and clock.
pub(crate) struct NewGame<'a> {
    pub variant: Option<String>,
    /// An OpenTafl rules string, already checked.
    pub rules: &'a str,
    pub attackers: Seat,
    pub defenders: Seat,
    pub clock: ClockSpec,
    pub context: Option<String>,
    pub rated: bool,
    pub private: bool,
}

/// Creates a game (of a challenge accepted, or a tournament's pairing) and emits
/// `game_started`; returns its row.
pub(crate) fn open_game(
    c: &Conn<'_>,
    e: &mut Emitter,
    new: NewGame<'_>,
    challenge: Option<ChallengeId>,
) -> Result<GameRow> {
    let rules = parse_rules(new.rules)?;
    let start = rules.start_position();
    let to_move = rules.first_to_move();
    let bank = new.clock.initial_bank_ms();
    let mut row = GameRow {
        id: GameId(0),
        variant: new.variant,
        rules: new.rules.to_owned(),
        attackers: new.attackers,
        defenders: new.defenders,
        status: GameStatus::Active,
        winner: None,
        result_reason: None,
        ply: 0,
        side_to_move: to_move,
        position: start.to_opentafl(),
        clock: new.clock.to_row(),
        attackers_bank_ms: bank,
        defenders_bank_ms: bank,
        turn_started_at: e.now(),
        deadline_at: None,
        reminded_ply: None,
        draw_offer_by: None,
        context: new.context,
        created_at: e.now(),
        updated_at: e.now(),
        finished_at: None,
        rated: new.rated,
        private: new.private,
        paused_at: None,
    };
    row.deadline_at = match game_state::seat(&row, to_move) {
        Seat::Player(_) => new.clock.deadline(e.now(), bank),
        Seat::Ai(_) | Seat::Imported(_) => None,
    };
    row.id = rows::insert_game(c, &row)?;
    e.emit(
        c,
        Some(row.id),
        challenge,
        game_state::humans(&row),
        EventPayload::GameStarted(GameStarted {
            attackers: row.attackers,
            defenders: row.defenders,
            variant: row.variant.clone(),
            side_to_move: row.side_to_move,
            deadline_at: row.deadline_at,
            context: row.context.clone(),
        }),
    )?;
    // Its engine game is cached once committed, so the first move replays no moves.
    e.cache_after_commit(row.id, tafl_engine::Game::new(rules));
    Ok(row)
}

fn load_challenge(c: &Conn<'_>, id: ChallengeId) -> Result<ChallengeRow> {
    rows::challenge(c, id)?.ok_or_else(|| ServiceError::NotFound(Missing::Challenge(id)))
}

fn require_pending(ch: &ChallengeRow, now: i64) -> Result<()> {
    if ch.status != ChallengeStatus::Pending {
        return Err(ServiceError::Conflict {
            message: format!("challenge {} is already {}", ch.id, ch.status),
            game: None,
        });
    }
    if ch.expires_at <= now {
        return Err(ServiceError::Conflict {
            message: format!("challenge {} has expired", ch.id),
            game: None,
        });
    }
    Ok(())
}

fn challenge_audience(ch: &ChallengeRow) -> Vec<PlayerId> {
    std::iter::once(ch.challenger).chain(ch.opponent).collect()
}

/// How the person a challenge concerns can end it before it is accepted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Answer {
    /// The opponent says no.
    Decline,
    /// The challenger withdraws it.
    Cancel,
}

/// A challenge request that passed every check that needs no database.
struct Checked {
    variant: Option<String>,
    rules_text: String,
    clock: ClockSpec,
    context: Option<String>,
    rated: bool,
}

/// Whether a challenge's game is rated: as asked, where it can be; by default when two people
/// play a preset with a clock (an untimed game could be left hanging forever by its loser).
/// A game against the AI is casual unless rated is asked for (as lichess's "rated" toggle), and
/// may be rated only at a level of fixed strength and with a clock.
fn decide_rated(request: &NewChallenge, variant: Option<&str>, clock: &ClockSpec) -> Result<bool> {
    let untimed = *clock == ClockSpec::Unlimited {};
    let refuse = |why: &str| {
        Err(ServiceError::Invalid(format!(
            "{why}; leave rated out or set it to false"
        )))
    };
    match (request.rated, request.opponent) {
        (Some(true), _) if variant.is_none() => {
            refuse("games on custom rules are never rated (only preset variants have ratings)")
        }
        (Some(true), Opponent::Ai { level }) if !level_may_be_rated(level) => refuse(&format!(
            "games against AI level {level} cannot be rated: it thinks for a time on every \
             core, so its strength changes with the server's load (levels 1 to 4 search a \
             fixed number of nodes and may be rated)"
        )),
        (Some(true), Opponent::Ai { .. }) if untimed => refuse(
            "a rated game against the AI needs a clock (an untimed one could be left \
             unfinished forever)",
        ),
        (Some(rated), _) => Ok(rated),
        (None, Opponent::Ai { .. }) => Ok(false),
        (None, _) => Ok(variant.is_some() && !untimed),
    }
}

impl Challenges<'_> {
    /// Everything [`Challenges::create`] would refuse in `request` without looking
    /// at the database: rules (and whether their start can be played), clock, context, the AI's
    /// availability and level. Front ends call it before they acknowledge a command, so a
    /// refusal can still be private and immediate.
    pub fn check(self, request: &NewChallenge) -> Result<()> {
        self.checked(request).map(|_| ())
    }

    fn checked(self, request: &NewChallenge) -> Result<Checked> {
        let (variant, rules_text, _rules) = resolve_rules(&request.rules)?;
        let clock = request
            .clock
            .validate()?
            .at_least(self.service.inner.config.min_move_clock_secs)?;
        let context = request
            .context
            .clone()
            .map(crate::Place::checked)
            .transpose()?
            .map(|place| place.to_context());
        if let Opponent::Ai { level } = request.opponent {
            self.check_ai_level(level)?;
        }
        let rated = decide_rated(request, variant.as_deref(), &clock)?;
        Ok(Checked {
            variant,
            rules_text,
            clock,
            context,
            rated,
        })
    }

    /// Whether the AI is available and plays at `level`.
    pub(crate) fn check_ai_level(self, level: u8) -> Result<()> {
        let Some(picker) = &self.service.inner.picker else {
            return Err(ServiceError::Unavailable(
                "the AI is not available on this server".into(),
            ));
        };
        let max = self
            .service
            .inner
            .config
            .max_ai_level
            .min(picker.max_level());
        if level == 0 || level > max {
            return Err(ServiceError::Invalid(format!(
                "AI level must be between 1 and {max}"
            )));
        }
        Ok(())
    }

    /// Challenges a player, anyone, or the AI (whose game starts at once).
    #[tracing::instrument(level = "debug", skip(self, request), fields(opponent = ?request.opponent))]
    pub async fn create(self, player: PlayerId, request: NewChallenge) -> Result<ChallengeCreated> {
        let Checked {
            variant,
            rules_text,
            clock,
            context,
            rated,
        } = self.checked(&request)?;
        if request.opponent == Opponent::Player(player) {
            return Err(ServiceError::Invalid(
                "you cannot challenge yourself".into(),
            ));
        }
        let expiry_ms = i64::try_from(self.service.inner.config.challenge_expiry_secs)
            .unwrap_or(i64::MAX / 2000)
            .saturating_mul(1000);
        if let Opponent::Ai { .. } = request.opponent {
            self.service.ask_engine(player, Asked::AiGame)?;
        }
        let max_ai_games = self.service.inner.config.max_ai_games_per_player;
        let cache = self.service.inner.engines.clone();
        let side = request.side;
        let opponent = request.opponent;
        let private = request.private;
        let created = self
            .service
            .commit(move |c, e| {
                if let Opponent::Player(id) = opponent {
                    rows::player(c, id)?
                        .ok_or_else(|| ServiceError::NotFound(Missing::Player(id)))?;
                    refuse_ai_player(c, id, "challenge the AI by its level instead")?;
                }
                if let Opponent::Ai { .. } = opponent
                    && max_ai_games > 0
                {
                    let going = rows::active_ai_games_of(c, player)?;
                    if going >= max_ai_games as usize {
                        return Err(ServiceError::Limited {
                            message: format!(
                                "you already have {going} games against the AI going, the most \
                                 one player may have; finish or resign one first"
                            ),
                            retry_after_secs: crate::CAP_RETRY_AFTER_SECS,
                        });
                    }
                }
                let mut ch = ChallengeRow {
                    id: ChallengeId(0),
                    challenger: player,
                    opponent: match opponent {
                        Opponent::Player(id) => Some(id),
                        _ => None,
                    },
                    opponent_ai_level: match opponent {
                        Opponent::Ai { level } => Some(level),
                        _ => None,
                    },
                    variant,
                    rules: rules_text,
                    challenger_side: side,
                    clock: serde_json::to_string(&clock).map_err(ServiceError::internal)?,
                    status: ChallengeStatus::Pending,
                    game_id: None,
                    context,
                    created_at: e.now(),
                    expires_at: e.now().saturating_add(expiry_ms),
                    resolved_at: None,
                    rated,
                    private,
                };
                ch.id = rows::insert_challenge(c, &ch)?;
                let game = match opponent {
                    Opponent::Ai { level } => {
                        let row = start_game(c, e, &ch, Seat::Ai(level))?;
                        ch.status = ChallengeStatus::Accepted;
                        ch.game_id = Some(row.id);
                        Some(game_state::game_view(c, &cache, &row, Some(player))?)
                    }
                    _ => {
                        let view = challenge_view(c, &ch)?;
                        e.emit(
                            c,
                            None,
                            Some(ch.id),
                            challenge_audience(&ch),
                            EventPayload::ChallengeCreated(view),
                        )?;
                        None
                    }
                };
                Ok(ChallengeCreated {
                    challenge: challenge_view(c, &ch)?,
                    game,
                })
            })
            .await?;
        if let Some(game) = &created.game {
            self.service.games().kick_ai(game.id);
        }
        Ok(created)
    }

    pub async fn get(self, id: ChallengeId) -> Result<ChallengeView> {
        self.service
            .read(move |c| challenge_view(c, &load_challenge(c, id)?))
            .await
    }

    pub async fn list(self, player: PlayerId) -> Result<ChallengeLists> {
        let now = self.service.now_ms();
        self.service
            .read(move |c| {
                let (incoming, outgoing) = rows::pending_challenges_of(c, player)?;
                let live = |v: Vec<ChallengeRow>| -> Result<Vec<ChallengeView>> {
                    v.iter()
                        .filter(|ch| ch.expires_at > now)
                        .map(|ch| challenge_view(c, ch))
                        .collect()
                };
                Ok(ChallengeLists {
                    incoming: live(incoming)?,
                    outgoing: live(outgoing)?,
                })
            })
            .await
    }

    /// Accepts a challenge sent to `player` (or an open one): the game starts.
    #[tracing::instrument(level = "debug", skip(self))]
    pub async fn accept(self, player: PlayerId, id: ChallengeId) -> Result<GameView> {
        let cache = self.service.inner.engines.clone();
        let view = self
            .service
            .commit(move |c, e| {
                let ch = load_challenge(c, id)?;
                if ch.challenger == player {
                    return Err(ServiceError::Forbidden(
                        "you cannot accept your own challenge".into(),
                    ));
                }
                if ch.opponent.is_some_and(|o| o != player) || ch.opponent_ai_level.is_some() {
                    return Err(ServiceError::Forbidden(format!(
                        "challenge {id} is not for you"
                    )));
                }
                require_pending(&ch, e.now())?;
                let mut accepted = ch.clone();
                accepted.opponent = Some(player);
                e.emit(
                    c,
                    None,
                    Some(ch.id),
                    vec![ch.challenger, player],
                    EventPayload::ChallengeAccepted(ChallengeAnswer { by: player }),
                )?;
                let row = start_game(c, e, &accepted, Seat::Player(player))?;
                game_state::game_view(c, &cache, &row, Some(player))
            })
            .await?;
        self.service.games().kick_ai(view.id);
        Ok(view)
    }

    /// Declines a challenge sent to `player`.
    #[tracing::instrument(level = "debug", skip(self))]
    pub async fn decline(self, player: PlayerId, id: ChallengeId) -> Result<ChallengeView> {
        self.resolve(player, id, Answer::Decline).await
    }

    /// Withdraws a challenge `player` sent.
    #[tracing::instrument(level = "debug", skip(self))]
    pub async fn cancel(self, player: PlayerId, id: ChallengeId) -> Result<ChallengeView> {
        self.resolve(player, id, Answer::Cancel).await
    }

    async fn resolve(
        self,
        player: PlayerId,
        id: ChallengeId,
        answer: Answer,
    ) -> Result<ChallengeView> {
        self.service
            .commit(move |c, e| {
                let mut ch = load_challenge(c, id)?;
                let allowed = match answer {
                    Answer::Cancel => ch.challenger == player,
                    Answer::Decline => ch.opponent == Some(player),
                };
                if !allowed {
                    return Err(ServiceError::Forbidden(match answer {
                        Answer::Cancel => format!("only the challenger may cancel challenge {id}"),
                        Answer::Decline => format!("challenge {id} was not sent to you"),
                    }));
                }
                require_pending(&ch, e.now())?;
                let (status, payload) = match answer {
                    Answer::Cancel => (
                        ChallengeStatus::Cancelled,
                        EventPayload::ChallengeCancelled(ChallengeAnswer { by: player }),
                    ),
                    Answer::Decline => (
                        ChallengeStatus::Declined,
                        EventPayload::ChallengeDeclined(ChallengeAnswer { by: player }),
                    ),
                };
                rows::resolve_challenge(c, id, status, None, e.now())?;
                ch.status = status;
                e.emit(c, None, Some(id), challenge_audience(&ch), payload)?;
                challenge_view(c, &ch)
            })
            .await
    }

    /// Marks one overdue challenge expired (scheduler).
    pub(crate) async fn expire(self, id: ChallengeId) -> Result<()> {
        self.service
            .commit(move |c, e| {
                let mut ch = load_challenge(c, id)?;
                if ch.status == ChallengeStatus::Pending && ch.expires_at <= e.now() {
                    rows::resolve_challenge(c, id, ChallengeStatus::Expired, None, e.now())?;
                    ch.status = ChallengeStatus::Expired;
                    e.emit(
                        c,
                        None,
                        Some(id),
                        challenge_audience(&ch),
                        EventPayload::ChallengeExpired {},
                    )?;
                }
                Ok(())
            })
            .await
    }
}
