"""Reads what `boardsight replay --clock 5+3` writes with python-chess, another program's
PGN reader, and checks every game against the corpus answers, and every move's [%clk]."""
import glob
import io
import json
import subprocess
import sys

import chess.pgn

binary, corpus = sys.argv[1], sys.argv[2]
sessions = games_checked = clocks_checked = 0
for log in sorted(glob.glob(f"{corpus}/*.log")):
    truth = json.load(open(log[: -len(".log")] + ".truth.json"))
    pgn = subprocess.run([binary, "replay", log, "--clock", "5+3"], capture_output=True, text=True, check=True).stdout
    stream = io.StringIO(pgn)
    games = []
    while (game := chess.pgn.read_game(stream)) is not None:
        if game.errors:
            sys.exit(f"{log}: python-chess found errors: {game.errors}")
        for tag in ("Event", "Site", "Date", "Round", "White", "Black", "Result"):
            if tag not in game.headers:
                sys.exit(f"{log}: no {tag} tag")
        if game.headers.get("TimeControl") != "300+3":
            sys.exit(f"{log}: no TimeControl 300+3")
        # Each side's clock only falls, but for the 3 s added a move.
        last = {True: 303.0, False: 303.0}
        for node in game.mainline():
            clock = node.clock()
            mover = not node.board().turn
            if clock is None or clock > last[mover] + 3:
                sys.exit(f"{log}: python-chess read a wrong clock {clock} after {node.move}")
            last[mover] = clock
            clocks_checked += 1
        games.append([m.uci() for m in game.mainline_moves()])
    if games != truth["games"]:
        sys.exit(f"{log}: python-chess read other moves than the truth")
    sessions += 1
    games_checked += len(games)
print(
    f"other reader: python-chess read {games_checked} games of {sessions} sessions back exactly, "
    f"with {clocks_checked} clock times"
)
