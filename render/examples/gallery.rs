//! Writes sample boards in every theme, orientation and a phone-sized width to a folder, to look
//! at: `cargo run -p tafl-render --example gallery -- /tmp/gallery`.

#[path = "../tests/common/mod.rs"]
mod common;

use std::path::PathBuf;

use tafl_render::{Coord, Mark, MarkKind, Scene, ScenePiece, Style, Theme, render_scene};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let out = PathBuf::from(std::env::args().nth(1).unwrap_or_else(|| "gallery".into()));
    std::fs::create_dir_all(&out)?;
    let mut scenes: Vec<(String, Scene)> = vec![
        (
            "copenhagen".into(),
            Scene::from_diagram(common::COPENHAGEN)?.with_corners_and_throne(),
        ),
        (
            "brandubh".into(),
            Scene::from_diagram(common::BRANDUBH)?.with_corners_and_throne(),
        ),
        ("midgame".into(), common::midgame()),
        ("raichi".into(), common::raichi()),
    ];
    for dim in [9u8, 13, 15, 19] {
        let mut scene = Scene::empty(dim)?.with_corners_and_throne();
        let c = dim / 2;
        scene.set(Coord::new(c, c), Some(ScenePiece::King))?;
        for i in (0..dim).filter(|i| *i != c) {
            let piece = if i.abs_diff(c) <= 2 {
                ScenePiece::Defender
            } else {
                ScenePiece::Attacker
            };
            scene.set(Coord::new(i, c), Some(piece))?;
            scene.set(Coord::new(c, i), Some(piece))?;
        }
        for (at, kind) in [
            (Coord::new(1, 1), MarkKind::AttackerFortress),
            (Coord::new(dim - 2, 1), MarkKind::DefenderFortress),
        ] {
            scene.marks.push(Mark { at, kind });
        }
        scenes.push((format!("cross{dim}"), scene));
    }
    for (name, scene) in &scenes {
        for theme in Theme::ALL {
            for (flip, size) in [(false, 800), (true, 800), (false, 360)] {
                let style = Style { size, theme, flip };
                let png = render_scene(scene, &style)?;
                let flipped = if flip { "flip-" } else { "" };
                let file = out.join(format!("{name}-{theme}-{flipped}{size}.png"));
                println!("{} {} bytes", file.display(), png.len());
                std::fs::write(file, png)?;
            }
        }
    }
    Ok(())
}
