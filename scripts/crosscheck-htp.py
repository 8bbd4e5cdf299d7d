#!/usr/bin/env python3
"""Cross-checks our referee with an engine speaking the hnefatafl text protocol
(hnefatafl-copenhagen's `hnefatafl-text-protocol`, or tools/hnefatafl-basic-htp for 7x7) over
random games: at every ply both lists of legal moves (its `play_from`/`play_to` against
`tafl legal`), the board after the move (`show_board_open_tafl` against `tafl replay`)
and the result. Prints each difference and a count.

    scripts/crosscheck-htp.py VARIANT ENGINE GAMES SEED
    scripts/crosscheck-htp.py brandubh-hnefatafl-org target/tools/release/hnefatafl-basic-htp 20 2

Expected differences: that engine forbids the defenders any move recreating an earlier board
(listed as "only ours" for the defender), and it draws after 140 plies.
Needs a release build of tafl (`cargo build --release -p tafl-tools --bin tafl`; TAFL overrides
its path).
"""
import json, os, random, subprocess, sys
TAFL = os.environ.get("TAFL", os.path.join(os.path.dirname(__file__), "..", "target", "release", "tafl"))
variant, engine, games, seed = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
# The engine knows 7x7 (its Brandubh) and 11x11 (Copenhagen).
dim = 7 if "brandubh" in variant else 11
rng = random.Random(seed)
class Eng:
    def __init__(self):
        self.p = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        if dim != 11: self.cmd(f"board_size {dim}")
    def cmd(self, line):
        self.p.stdin.write(line + "\n"); self.p.stdin.flush()
        while True:
            r = self.p.stdout.readline()
            if not r: raise SystemExit("engine died")
            r = r.strip()
            if r.startswith("="): return True, r[1:].strip()
            if r.startswith("?"): return False, r[1:].strip()
    def close(self):
        try: self.p.stdin.write("quit\n"); self.p.stdin.flush()
        except Exception: pass
        self.p.kill()
def ours_replay(moves):
    out = subprocess.run([TAFL, "replay", "--variant", variant] + moves, capture_output=True, text=True).stdout.strip().splitlines()
    return json.loads(out[-1]) if out else None
def ours_legal(position, to_move):
    args = [TAFL, "legal", "--variant", variant]
    if position: args += ["--position", position, "--to-move", to_move]
    return set(subprocess.run(args, capture_output=True, text=True).stdout.split())
def top_down(rec):
    rows = rec.strip().strip("/").split("/")[::-1]
    return "/" + "/".join(r.replace("A","t").replace("D","T") for r in rows) + "/"
diffs = 0
for g in range(games):
    e = Eng(); moves = []; position = None; to_move = None; boards = set()
    while True:
        ok, st = e.cmd("final_status")
        last = ours_replay(moves) if moves else None
        if last and last.get("outcome"):
            if st == "ongoing": print(f"game {g}: ours ended ({last['outcome']}) theirs ongoing after {moves}"); diffs += 1
            elif (last["outcome"].get("winner") or "draw")[:5] != st[:5]: print(f"game {g}: ours {last['outcome']} theirs {st} after {moves}"); diffs += 1
            break
        if st != "ongoing":
            print(f"game {g}: theirs {st} at ply {len(moves)} (ours ongoing)"); break
        if last: position, to_move = last["position"], last["to_move"]
        ours = ours_legal(position, to_move)
        ok, fr = e.cmd("play_from")
        words = fr.split(); role = words[0]; theirs = set()
        for f in words[1:]:
            ok, tos = e.cmd(f"play_to {role} {f}")
            for t in tos.split(): theirs.add(f"{f}-{t}")
        if ours != theirs:
            extra = sorted(ours - theirs); missing = sorted(theirs - ours)
            print(f"game {g} ply {len(moves)} ({role}): only ours {extra[:8]} only theirs {missing[:8]}")
            diffs += 1
        common = sorted(ours & theirs)
        if not common: print(f"game {g}: no common move"); break
        mv = rng.choice(common)
        ok, r = e.cmd(f"play {role} {mv.replace('-', ' ')}")
        if not ok: print(f"game {g}: they refused {mv}: {r}"); diffs += 1; break
        moves.append(mv)
        ok, b = e.cmd("show_board_open_tafl")
        last = ours_replay(moves)
        if top_down(b) != last["position"] and not (last.get("outcome") or {}).get("reason") == "king_captured":
            print(f"game {g} ply {len(moves)}: boards differ after {mv}: theirs {top_down(b)} ours {last['position']} moves {' '.join(moves)}"); diffs += 1; break
        if len(moves) > 400: break
    e.close()
print(f"{variant}: {games} games, {diffs} differences")
