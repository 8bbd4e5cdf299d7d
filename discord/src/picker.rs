//! The move picker for beginners: a private message with a select menu of the pieces that can
//! move, then one of that piece's destinations; the chosen move is played through the same
//! service call as `/move`. Discord shows at most 25 options per menu, so long lists are paged
//! with "more…" and "earlier…" options. Every step carries the game and the ply it was opened
//! at, so a picker left open while the game moved on is refused instead of playing a stale move.

use poise::CreateReply;
use serenity::all::{
    ComponentInteraction, ComponentInteractionDataKind, CreateActionRow, CreateSelectMenu,
    CreateSelectMenuKind, CreateSelectMenuOption,
};

use super::answers::ClickAnswer;
use super::components::{ButtonAction, answer_privately};
use super::posts::{self, MoveFacts};
use super::{BotError, Data, mentions};
use crate::domain::GameId;
use crate::service::{GameView, MoveRequest};

/// Real choices per page: two more options page back and forth, within Discord's 25.
pub const PAGE_SIZE: usize = 23;

/// The value of the option that goes back from destinations to pieces.
const BACK: &str = "back";

/// Which menu a selection came from; the selected value says what was chosen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PickerStep {
    /// The pieces that can move, in the game at `ply`.
    Pieces { game: GameId, ply: u32 },
    /// The destinations of the piece on `from`.
    Targets {
        game: GameId,
        ply: u32,
        from: String,
    },
}

impl PickerStep {
    pub fn custom_id(&self) -> String {
        match self {
            PickerStep::Pieces { game, ply } => format!("pick:from:{game}:{ply}"),
            PickerStep::Targets { game, ply, from } => format!("pick:to:{game}:{ply}:{from}"),
        }
    }

    /// Reads a custom id already split at `:` (starting with "pick").
    pub fn parse(parts: &[&str]) -> Option<PickerStep> {
        match parts {
            ["pick", "from", game, ply] => Some(PickerStep::Pieces {
                game: game.parse().ok()?,
                ply: ply.parse().ok()?,
            }),
            ["pick", "to", game, ply, from]
                if !from.is_empty() && from.chars().all(|c| c.is_ascii_alphanumeric()) =>
            {
                Some(PickerStep::Targets {
                    game: game.parse().ok()?,
                    ply: ply.parse().ok()?,
                    from: (*from).to_owned(),
                })
            }
            _ => None,
        }
    }
}

/// One option of a menu: what it shows and the value it sends.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Choice {
    pub label: String,
    pub value: String,
    pub description: Option<String>,
}

/// Page `page` of `choices` (clamped to the last page), with "earlier…"/"more…" options
/// where there are other pages: never more than 25 options.
pub fn page_of(choices: &[Choice], page: usize) -> (Vec<Choice>, usize, usize) {
    let pages = choices.len().div_ceil(PAGE_SIZE).max(1);
    let page = page.min(pages - 1);
    let mut shown: Vec<Choice> = choices
        .iter()
        .skip(page * PAGE_SIZE)
        .take(PAGE_SIZE)
        .cloned()
        .collect();
    if page > 0 {
        shown.insert(
            0,
            Choice {
                label: format!("earlier… (page {} of {pages})", page),
                value: format!("page:{}", page - 1),
                description: None,
            },
        );
    }
    if page + 1 < pages {
        shown.push(Choice {
            label: format!("more… (page {} of {pages})", page + 2),
            value: format!("page:{}", page + 1),
            description: None,
        });
    }
    (shown, page, pages)
}

/// The squares that have a legal move, in the order of the moves, with how many each has.
pub fn pieces(legal: &[String]) -> Vec<Choice> {
    let mut counted: Vec<(String, usize)> = Vec::new();
    for mv in legal {
        let from = mv.split('-').next().unwrap_or(mv).to_owned();
        match counted.iter_mut().find(|(sq, _)| *sq == from) {
            Some((_, n)) => *n += 1,
            None => counted.push((from, 1)),
        }
    }
    counted
        .into_iter()
        .map(|(sq, n)| Choice {
            label: sq.clone(),
            value: sq,
            description: Some(if n == 1 {
                "1 move".to_owned()
            } else {
                format!("{n} moves")
            }),
        })
        .collect()
}

/// The destinations of the moves from one square.
pub fn targets(legal_from: &[String]) -> Vec<Choice> {
    legal_from
        .iter()
        .map(|mv| Choice {
            label: mv.clone(),
            value: mv.rsplit('-').next().unwrap_or(mv).to_owned(),
            description: None,
        })
        .collect()
}

fn menu(step: &PickerStep, choices: Vec<Choice>, placeholder: &str) -> Vec<CreateActionRow> {
    select_menu(
        ButtonAction::Pick(step.clone()).custom_id(),
        choices,
        placeholder,
    )
}

/// A row with one select menu of `choices`, sent back under `custom_id`.
pub fn select_menu(
    custom_id: String,
    choices: Vec<Choice>,
    placeholder: &str,
) -> Vec<CreateActionRow> {
    let options = choices
        .into_iter()
        .map(|c| {
            let option = CreateSelectMenuOption::new(c.label, c.value);
            match c.description {
                Some(d) => option.description(d),
                None => option,
            }
        })
        .collect();
    vec![CreateActionRow::SelectMenu(
        CreateSelectMenu::new(custom_id, CreateSelectMenuKind::String { options })
            .placeholder(placeholder),
    )]
}

/// The pieces menu of `view`, page `page`.
async fn pieces_message(
    data: &Data,
    view: &GameView,
    page: usize,
) -> Result<CreateReply, BotError> {
    let legal = data.service.games().legal_moves(view.id, None).await?;
    let all = pieces(&legal);
    let (shown, page, pages) = page_of(&all, page);
    let step = PickerStep::Pieces {
        game: view.id,
        ply: view.ply,
    };
    Ok(CreateReply::default()
        .content(format!(
            "Game #{}: which piece? ({} can move; page {} of {pages})",
            view.id,
            all.len(),
            page + 1
        ))
        .components(menu(&step, shown, "Pick a piece"))
        .allowed_mentions(mentions::nobody()))
}

/// The destinations menu of the piece on `from`, page `page`.
async fn targets_message(
    data: &Data,
    view: &GameView,
    from: &str,
    page: usize,
) -> Result<CreateReply, BotError> {
    let legal = data
        .service
        .games()
        .legal_moves(view.id, Some(from))
        .await?;
    let mut all = targets(&legal);
    all.push(Choice {
        label: "another piece…".to_owned(),
        value: BACK.to_owned(),
        description: None,
    });
    let (shown, page, pages) = page_of(&all, page);
    let step = PickerStep::Targets {
        game: view.id,
        ply: view.ply,
        from: from.to_owned(),
    };
    Ok(CreateReply::default()
        .content(format!(
            "Game #{}: where to, from {from}? ({} moves; page {} of {pages})",
            view.id,
            legal.len(),
            page + 1
        ))
        .components(menu(&step, shown, "Pick a destination"))
        .allowed_mentions(mentions::nobody()))
}

/// Opens the picker privately for the player to move (the "Pick a move" button).
pub async fn open(click: &ClickAnswer<'_>, data: &Data, view: &GameView) -> Result<(), BotError> {
    if !view.your_turn {
        let text = format!("It is not your turn in game #{}.", view.id);
        return answer_privately(click, CreateReply::default().content(text)).await;
    }
    let first = pieces_message(data, view, 0).await?;
    answer_privately(click, first).await
}

/// What was selected in a menu.
fn selected(press: &ComponentInteraction) -> Result<String, BotError> {
    match &press.data.kind {
        ComponentInteractionDataKind::StringSelect { values } => values
            .first()
            .cloned()
            .ok_or_else(|| BotError::BadOption("Nothing was selected.".into())),
        _ => Err(BotError::UnknownButton(press.data.custom_id.clone())),
    }
}

fn page_number(value: &str) -> Option<usize> {
    value.strip_prefix("page:")?.parse().ok()
}

async fn update(click: &ClickAnswer<'_>, message: CreateReply) -> Result<(), BotError> {
    click.update(message).await?;
    Ok(())
}

/// Handles a selection in one of the picker's menus.
pub async fn run(click: &ClickAnswer<'_>, data: &Data, step: PickerStep) -> Result<(), BotError> {
    let press = click.press();
    let value = selected(press)?;
    let (game, ply) = match &step {
        PickerStep::Pieces { game, ply } | PickerStep::Targets { game, ply, .. } => (*game, *ply),
    };
    let me = data.player_of(&press.user).await?;
    let view = data.service.games().game(Some(me), game).await?;
    if !view.status.is_active() {
        return Err(BotError::BadOption(format!("Game #{game} is over.")));
    }
    if view.ply != ply {
        return Err(BotError::BadOption(format!(
            "Game #{game} has moved on since this picker was opened; press **Pick a move** again."
        )));
    }
    match (step, page_number(&value)) {
        (PickerStep::Pieces { .. }, Some(page)) => {
            update(click, pieces_message(data, &view, page).await?).await
        }
        (PickerStep::Targets { from, .. }, Some(page)) => {
            update(click, targets_message(data, &view, &from, page).await?).await
        }
        (PickerStep::Targets { .. }, None) if value == BACK => {
            update(click, pieces_message(data, &view, 0).await?).await
        }
        (PickerStep::Pieces { .. }, None) => {
            update(click, targets_message(data, &view, &value, 0).await?).await
        }
        (PickerStep::Targets { from, .. }, None) => {
            play(click, data, &view, format!("{from}-{value}")).await
        }
    }
}

/// Plays the chosen move as `/move` does, and shows it to the channel as `/move`'s reply would.
async fn play(
    click: &ClickAnswer<'_>,
    data: &Data,
    view: &GameView,
    text: String,
) -> Result<(), BotError> {
    let press = click.press();
    let me = data.player_of(&press.user).await?;
    let against_ai = view.attackers.ai_level.is_some() || view.defenders.ai_level.is_some();
    let request = MoveRequest {
        text,
        expected_ply: Some(view.ply),
        idempotency_key: None,
    };
    let scope = data.service.discord().in_reply_in(press.channel_id.get());
    let played = scope.service().games().play(me, view.id, request).await?;
    if against_ai && played.status.is_active() {
        data.expect_ai_reply(played.game_id, &press.token);
    }
    let after = data.service.games().game(Some(me), played.game_id).await?;
    let post = posts::move_post(data, &after, &MoveFacts::from(&played)).await;
    match click.message(post.reply()).await {
        Ok(_) => {
            scope.shown().await;
            Ok(())
        }
        Err(e) => {
            scope.not_shown().await;
            Err(BotError::ReplyNotSent(Box::new(e)))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn choices(n: usize) -> Vec<Choice> {
        (0..n)
            .map(|i| Choice {
                label: format!("c{i}"),
                value: format!("c{i}"),
                description: None,
            })
            .collect()
    }

    #[test]
    fn pages_never_hold_more_than_25_options_and_link_each_other() {
        let all = choices(60);
        let (first, page, pages) = page_of(&all, 0);
        assert_eq!((page, pages), (0, 3));
        assert_eq!(first.len(), PAGE_SIZE + 1);
        assert_eq!(first.last().map(|c| c.value.as_str()), Some("page:1"));
        let (middle, _, _) = page_of(&all, 1);
        assert_eq!(middle.len(), 25);
        assert_eq!(middle[0].value, "page:0");
        let (last, page, _) = page_of(&all, 99);
        assert_eq!(page, 2);
        assert_eq!(last.len(), 60 - 2 * PAGE_SIZE + 1);
        let (few, _, pages) = page_of(&choices(3), 0);
        assert_eq!((few.len(), pages), (3, 1));
    }

    #[test]
    fn pieces_are_counted_from_the_legal_moves() {
        let legal: Vec<String> = ["d1-d2", "d1-d3", "a4-a2"].map(String::from).to_vec();
        let pieces = pieces(&legal);
        assert_eq!(pieces.len(), 2);
        assert_eq!(pieces[0].value, "d1");
        assert_eq!(pieces[0].description.as_deref(), Some("2 moves"));
        assert_eq!(targets(&legal[..2])[1].value, "d3");
    }

    #[test]
    fn picker_ids_round_trip_and_refuse_junk() {
        let step = PickerStep::Targets {
            game: GameId(7),
            ply: 3,
            from: "k10".into(),
        };
        let id = step.custom_id();
        let parts: Vec<&str> = id.split(':').collect();
        assert_eq!(PickerStep::parse(&parts), Some(step));
        for junk in [
            "pick:to:1:2:",
            "pick:to:1:x:a1",
            "pick:from:1",
            "pick:to:1:2:a-1",
        ] {
            let parts: Vec<&str> = junk.split(':').collect();
            assert_eq!(PickerStep::parse(&parts), None, "{junk}");
        }
    }
}
