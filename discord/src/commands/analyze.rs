//! `/analyze` (the computer analysis of a game: each side's accuracy, the worst moves with the
//! better line, and the chart) and `/hint` (the AI's move, in a casual game against it).

use crate::answers::command::send;
use std::time::Duration;

use poise::CreateReply;
use serenity::all::CreateAttachment;
use tokio::sync::broadcast;

use super::common::{autocomplete_game, autocomplete_game_to_analyse, game_here};
use crate::domain::{AnalysisId, GameId, GameStatus, PlayerId};
use crate::service::{
    AnalysisView, EventPayload, GameView, HistoryQuery, MarkView, PlyView, analysis_chart,
    analysis_chart_text,
};
use crate::{BotError, Context, mentions};

/// How long the command waits for a queued analysis: Discord lets a reply be edited for 15
/// minutes.
const WAIT_FOR_ANALYSIS: Duration = Duration::from_secs(14 * 60);

/// The computer analysis of a game: accuracy, the worst moves, and a chart
#[poise::command(slash_command)]
pub async fn analyze(
    ctx: Context<'_>,
    #[description = "Which game (default: this channel's, else your last finished game)"]
    #[autocomplete = "autocomplete_game_to_analyse"]
    game: Option<i64>,
) -> Result<(), BotError> {
    let data = ctx.data();
    let me = data.player_of(ctx.author()).await?;
    let id = which_game(&ctx, me, game.map(GameId)).await?;
    // Subscribed before asking, so the end of a short analysis is not missed.
    let mut events = data.service.events().subscribe();
    // Discord tells no address: only the player's own shares of the queue apply.
    let asker = crate::service::Asker {
        player: me,
        from: None,
    };
    let asked = data.service.analysis().request(asker, id).await?;
    // A long wait is deferred by the answer budget (`answers`); the answer edits it.
    let view = if asked.status == crate::domain::AnalysisStatus::Done {
        asked
    } else {
        match wait_for(&mut events, asked.id).await {
            Some(()) => data.service.analysis().get(Some(me), id).await?,
            None => {
                send(
                    &ctx,
                    CreateReply::default()
                        .content(format!(
                            "The analysis of game #{id} is still waiting its turn \
                     (position {} in the queue); `/analyze game:{id}` again later shows it.",
                            asked.queue_position.unwrap_or(1)
                        ))
                        .allowed_mentions(mentions::nobody()),
                )
                .await?;
                return Ok(());
            }
        }
    };
    let game_view = data.service.games().game(Some(me), id).await?;
    let title = format!(
        "Game #{id} · {} vs {}",
        game_view.attackers.name, game_view.defenders.name
    );
    let theme = crate::data::BOARD_THEME
        .parse()
        .unwrap_or(tafl_render::Theme::Dark);
    let png = analysis_chart(&view.plies, &title, theme)?;
    let chart = CreateAttachment::bytes(png, format!("analysis-{id}.png"))
        .description(analysis_chart_text(&view.plies));
    let reply = CreateReply::default()
        .content(summary_text(&view, &game_view))
        .attachment(chart)
        .allowed_mentions(mentions::nobody());
    send(&ctx, reply).await?;
    Ok(())
}

/// The best move for you now, in a casual game against the AI (answers privately)
#[poise::command(slash_command, ephemeral)]
pub async fn hint(
    ctx: Context<'_>,
    #[description = "Which game, when this channel has several"]
    #[autocomplete = "autocomplete_game"]
    game: Option<i64>,
) -> Result<(), BotError> {
    let data = ctx.data();
    let me = data.player_of(ctx.author()).await?;
    let summary = game_here(&ctx, me, game.map(GameId)).await?;
    // A hint that has to wait for the engine says so at once, with its place in line (as
    // `/analyze` does); the hint follows when it is found.
    let (placed, place) = tokio::sync::oneshot::channel();
    let hint = data.service.analysis().hint(me, summary.id, move |place| {
        let _ = placed.send(place);
    });
    tokio::pin!(hint);
    let mv = tokio::select! {
        mv = &mut hint => mv?,
        Ok(place) = place => {
            send(
                &ctx,
                CreateReply::default()
                    .content(format!(
                        "Your hint for game #{} is waiting for the engine (position {place} in \
                         line); it follows here.",
                        summary.id
                    ))
                    .ephemeral(true)
                    .allowed_mentions(mentions::nobody()),
            )
            .await?;
            hint.await?
        }
    };
    send(
        &ctx,
        CreateReply::default()
            .content(format!("Hint for game #{}: **{mv}**", summary.id))
            .ephemeral(true)
            .allowed_mentions(mentions::nobody()),
    )
    .await?;
    Ok(())
}

/// The game option, else this channel's game, else the player's last finished game.
async fn which_game(
    ctx: &Context<'_>,
    me: PlayerId,
    chosen: Option<GameId>,
) -> Result<GameId, BotError> {
    if let Some(id) = chosen {
        return Ok(id);
    }
    if let Ok(here) = game_here(ctx, me, None).await {
        return Ok(here.id);
    }
    let query = HistoryQuery {
        status: Some(GameStatus::Finished),
        variant: None,
        page: 1,
        page_size: 1,
    };
    let last = ctx
        .data()
        .service
        .games()
        .games_of_player(me, Some(me), query)
        .await?;
    last.items.first().map(|g| g.id).ok_or_else(|| {
        BotError::BadOption("You have no finished game to analyse; name one with `game`.".into())
    })
}

/// Waits for the `analysis_done` event of `analysis`; None when it takes too long.
async fn wait_for(
    events: &mut broadcast::Receiver<crate::service::Event>,
    analysis: AnalysisId,
) -> Option<()> {
    let wait = async {
        loop {
            match events.recv().await {
                Ok(event) => {
                    if let EventPayload::AnalysisDone(done) = &event.payload
                        && done.analysis == analysis
                    {
                        return Some(());
                    }
                }
                Err(broadcast::error::RecvError::Lagged(_)) => {}
                Err(broadcast::error::RecvError::Closed) => return None,
            }
        }
    };
    tokio::time::timeout(WAIT_FOR_ANALYSIS, wait)
        .await
        .ok()
        .flatten()
}

fn summary_text(view: &AnalysisView, game: &GameView) -> String {
    let mut text = format!(
        "**Analysis of game #{}** · {} (attackers) vs {} (defenders) · {} plies, {} ms a position\n",
        game.id,
        mentions::literal(&game.attackers.name),
        mentions::literal(&game.defenders.name),
        view.plies_analysed,
        view.ms_per_ply
    );
    if let Some(summary) = &view.summary {
        let side = |name: &str, s: &crate::service::SideSummaryView| {
            format!(
                "{name} {:.0}% ({} blunders, {} mistakes, {} inaccuracies{})",
                s.accuracy,
                s.blunders,
                s.mistakes,
                s.inaccuracies,
                if s.missed_wins > 0 {
                    format!(", {} missed wins", s.missed_wins)
                } else {
                    String::new()
                }
            )
        };
        text.push_str(&format!(
            "Accuracy: {}; {}\n",
            side("attackers", &summary.attackers),
            side("defenders", &summary.defenders)
        ));
        if summary.worst.is_empty() {
            text.push_str("No inaccuracy or worse: well played.\n");
        } else {
            text.push_str("Worst moves:\n");
            for ply in &summary.worst {
                text.push_str(&format!("• {}\n", worst_line(ply)));
            }
        }
    }
    text.chars().take(1900).collect()
}

fn worst_line(ply: &PlyView) -> String {
    let mark = match ply.mark {
        MarkView::MissedWin => "missed win".to_owned(),
        MarkView::Blunder => format!("blunder (gave away {:.0}%)", ply.loss),
        MarkView::Mistake => format!("mistake (gave away {:.0}%)", ply.loss),
        MarkView::Inaccuracy => format!("inaccuracy (gave away {:.0}%)", ply.loss),
        MarkView::Best | MarkView::Good => "fine".to_owned(),
    };
    let better = match (&ply.best, &ply.forced) {
        (Some(best), Some(forced)) => format!("; better **{best}** ({forced})"),
        (Some(best), None) => {
            let line: Vec<&str> = ply.line.iter().take(6).map(String::as_str).collect();
            format!("; better **{best}**, line {}", line.join(" "))
        }
        (None, _) => String::new(),
    };
    format!("{}. {} ({}): {mark}{better}", ply.ply, ply.mv, ply.side)
}
