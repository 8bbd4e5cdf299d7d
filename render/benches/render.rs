//! Time to draw and encode a board, and the PNG's size: `cargo bench -p tafl-render`.
//! Targets (issue 4): at most 5 ms and 80 KB for 11x11 at the default 800 px.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use tafl_render::{
    Caption, CaptionSide, Captured, Coord, Scene, ScenePiece, Style, Theme, render_scene,
};

const COPENHAGEN: &str = "
...ttttt...
.....t.....
...........
t....T....t
t...TTT...t
tt.TTKTT.tt
t...TTT...t
t....T....t
...........
.....t.....
...ttttt...";

const MIDGAME: &str = "
...tt.t....
.....t.....
......t....
t....T...t.
t..T.Tt...t
tt..TK.T.tt
t...T.T...t
t.........t
.....T.....
..t..t.....
...tt.tt...";

fn caption(warning: Option<&str>) -> Caption {
    Caption {
        players: Some("Ragnar vs Astrid".into()),
        move_number: Some(23),
        moved: None,
        to_move: Some(CaptionSide::Defenders),
        warning: warning.map(str::to_string),
    }
}

/// A busy 11x11 middle game: last move, two captures, an open line and a caption.
fn midgame() -> Scene {
    let mut scene = Scene::from_diagram(MIDGAME)
        .unwrap_or_else(|e| panic!("{e}"))
        .with_corners_and_throne();
    scene.last_move = Some((Coord::new(1, 8), Coord::new(6, 8)));
    scene.captured = vec![
        Captured {
            at: Coord::new(6, 7),
            piece: Some(ScenePiece::Defender),
        },
        Captured {
            at: Coord::new(7, 8),
            piece: Some(ScenePiece::Defender),
        },
    ];
    scene.open_lines = vec![(6..10).map(|rank| Coord::new(5, rank)).collect()];
    scene.caption = Some(caption(Some("Raichi!")));
    scene
}

/// A crowded 19x19 board: 96 pieces in a ring pattern, last move and caption.
fn large() -> Scene {
    let mut scene = Scene::empty(19)
        .unwrap_or_else(|e| panic!("{e}"))
        .with_corners_and_throne();
    for rank in 0..19u8 {
        for file in 0..19u8 {
            let ring = file.abs_diff(9).max(rank.abs_diff(9));
            let piece = match ring {
                0 => Some(ScenePiece::King),
                2 | 3 if (file + rank) % 2 == 0 => Some(ScenePiece::Defender),
                7 if (file + rank) % 3 != 0 => Some(ScenePiece::Attacker),
                _ => None,
            };
            scene.cells[usize::from(rank) * 19 + usize::from(file)] = piece;
        }
    }
    scene.last_move = Some((Coord::new(2, 2), Coord::new(2, 12)));
    scene.caption = Some(caption(None));
    scene
}

fn bench(c: &mut Criterion) {
    let start = Scene::from_diagram(COPENHAGEN)
        .unwrap_or_else(|e| panic!("{e}"))
        .with_corners_and_throne();
    let cases = [
        ("11x11 start, light", start.clone(), Theme::Light),
        ("11x11 start, dark", start, Theme::Dark),
        ("11x11 midgame+caption, light", midgame(), Theme::Light),
        ("19x19 crowded+caption, light", large(), Theme::Light),
    ];
    for (name, scene, theme) in &cases {
        let style = Style {
            theme: *theme,
            ..Style::default()
        };
        let png = render_scene(scene, &style).unwrap_or_else(|e| panic!("{e}"));
        println!(
            "{name} at {} px: PNG {:.1} KB ({} bytes)",
            style.size,
            png.len() as f64 / 1024.0,
            png.len()
        );
        c.bench_function(&format!("render+encode {name}"), |b| {
            b.iter(|| render_scene(black_box(scene), black_box(&style)))
        });
        // The machine is shared with other builds: CPU time of this thread shows the cost of a
        // picture without the time spent waiting for a core.
        c.bench_function(&format!("render+encode {name} (thread CPU time)"), |b| {
            b.iter_custom(|iters| {
                let wall = Instant::now();
                let cpu = thread_cpu_time();
                for _ in 0..iters {
                    let _ = black_box(render_scene(black_box(scene), black_box(&style)));
                }
                match (cpu, thread_cpu_time()) {
                    (Some(before), Some(after)) => after.saturating_sub(before),
                    _ => wall.elapsed(),
                }
            })
        });
    }
}

/// Time this thread has spent on a CPU (Linux: the first field of its schedstat).
fn thread_cpu_time() -> Option<Duration> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let nanos: u64 = text.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(nanos))
}

criterion_group!(benches, bench);
criterion_main!(benches);
