//! `taflbot engine` driven through its standard input and output, as OpenTafl drives it.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

#[test]
fn taflbot_engine_speaks_the_opentafl_engine_protocol() {
    let rules = tafl_engine::variant("brandubh").unwrap().rules();
    let mut child = Command::new(env!("CARGO_BIN_EXE_taflbot"))
        .args(["engine", "--move-time-ms", "100", "--hash-mib", "4"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
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
    assert!(child.wait().unwrap().success());
}
