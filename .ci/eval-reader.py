"""Reads what `boardsight review` writes with python-chess: every move of an annotated
corpus game has an [%eval] that python-chess reads as the value written, and the glyphs
and variations parse."""
import io
import re
import subprocess
import sys

import chess.engine
import chess.pgn

binary, log = sys.argv[1], sys.argv[2]
pgn = subprocess.run([binary, "replay", log], capture_output=True, text=True, check=True).stdout
with open("/tmp/boardsight-eval-input.pgn", "w") as f:
    f.write(pgn)
annotated = subprocess.run(
    [binary, "review", "/tmp/boardsight-eval-input.pgn", "--depth", "8"],
    capture_output=True, text=True, check=True,
).stdout
game = chess.pgn.read_game(io.StringIO(annotated))
if game is None or game.errors:
    sys.exit(f"python-chess could not read the annotated game: {game and game.errors}")
checked = 0
for node in game.mainline():
    written = re.search(r"\[%eval ([^\]]+)\]", node.comment)
    if written is None:
        if not node.board().is_checkmate():
            sys.exit(f"no [%eval] after {node.move}: {node.comment!r}")
        continue
    text = written.group(1)
    want = chess.engine.Mate(int(text[1:])) if text.startswith("#") else chess.engine.Cp(round(float(text) * 100))
    got = node.eval()
    if got is None or got.white() != want:
        sys.exit(f"after {node.move}: python-chess read {got} for [%eval {text}]")
    checked += 1
marked = sum(1 for node in game.mainline() if node.nags)
print(f"eval reader: python-chess read all {checked} [%eval] of an annotated corpus game ({marked} moves marked)")
