//! Our engine driven through a pair of pipes, as OpenTafl drives `tafl engine` through its
//! standard input and output.

use std::io::{BufRead, BufReader, Write};
use std::time::Duration;

use tafl_tools::protocol::engine::OtepEngine;

#[test]
fn the_engine_speaks_the_opentafl_engine_protocol() {
    let rules = tafl_engine::variant("brandubh").unwrap().rules();
    let (engine_in, mut stdin) = std::io::pipe().unwrap();
    let (stdout, engine_out) = std::io::pipe().unwrap();
    let engine = std::thread::spawn(move || {
        OtepEngine::new(Some(Duration::from_millis(100)), 4)
            .run(BufReader::new(engine_in), engine_out)
    });
    let mut lines = BufReader::new(stdout).lines();
    assert_eq!(lines.next().unwrap().unwrap(), "hello");
    writeln!(stdin, "rules {}", rules.to_opentafl()).unwrap();
    writeln!(stdin, "play attackers").unwrap();
    writeln!(stdin, "clock 60000 60000 0 0 0").unwrap();
    let mut game = tafl_engine::Game::new(rules);
    let ours = lines
        .by_ref()
        .map(Result::unwrap)
        .find_map(|l| l.strip_prefix("move ").map(str::to_string))
        .unwrap();
    game.play_str(&ours).unwrap();
    writeln!(stdin, "move {}", game.position().to_opentafl()).unwrap();
    // The opponent answers with its first legal move; the engine must reply legally.
    let reply = game.legal_moves()[0];
    game.play(reply).unwrap();
    writeln!(
        stdin,
        "opponent-move {reply} {}",
        game.position().to_opentafl()
    )
    .unwrap();
    writeln!(stdin, "play attackers").unwrap();
    let second = lines
        .by_ref()
        .map(Result::unwrap)
        .find_map(|l| l.strip_prefix("move ").map(str::to_string))
        .unwrap();
    assert!(
        game.play_str(&second).is_ok(),
        "illegal second move {second}"
    );
    writeln!(stdin, "finish 0").unwrap();
    writeln!(stdin, "goodbye").unwrap();
    engine.join().unwrap().unwrap();
}
